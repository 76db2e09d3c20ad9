package store_test

import (
	"fmt"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

// A process's task store, bounded tighter than by default: 1,000 live
// tasks and 64 MiB of records, of which one caller holds at most its
// share.
func ExampleNewMemoryTasks() {
	tasks := store.NewMemoryTasks(1000, store.WithMaxBytes(64<<20))
	app := vurb.New(vurb.WithName("reports"), vurb.WithTasks(vurb.TaskConfig{Store: tasks}))
	_ = app

	fmt.Println(store.CallerShare(1000, 64<<20)) // one caller's share: tasks, bytes
	// Output: 62 4194304
}

// Stores of your own, shared by the replicas of an app: a Replicas value
// hands them to vurb.WithReplicas as they are (a nil field keeps its
// default). sharedTasks stands for a store.Tasks every replica reaches.
func ExampleReplicas() {
	var sharedTasks store.Tasks = store.NewMemoryTasks(0)
	stateKey := make([]byte, 32) // the same 32 random bytes on every replica
	app := vurb.New(vurb.WithName("reports"),
		vurb.WithReplicas(store.Replicas{Tasks: sharedTasks}),
		vurb.WithRequestStateKeys(stateKey))
	_ = app
}
