package vurb_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

// createTask declares jobs.run, a task that returns at once, on app and
// returns what a 2026-07-28 client that declares the extension gets when
// it calls it: the created task.
func createTask(t *testing.T, app *vurb.App) map[string]any {
	t.Helper()
	vurb.Query(app, "jobs.run", func(context.Context, struct{}) (string, error) { return "ran", nil }).Task()
	_, resp := taskRPC(t, app.HTTPHandler(), tasksCaps, "tools/call", "jobs_run", `"name":"jobs_run","arguments":{}`)
	created := result(t, resp)
	if created["resultType"] != "task" {
		t.Fatalf("not a task: %v", created)
	}
	return created
}

// TestWithTasksGivenTwiceTheLastWinsWhole: a second WithTasks replaces
// the first whole; the first's TTL does not fill the second's zero field.
func TestWithTasksGivenTwiceTheLastWinsWhole(t *testing.T) {
	is := is.New(t)
	first, last := store.NewMemoryTasks(0), store.NewMemoryTasks(0)
	app := vurb.New(vurb.WithTasks(vurb.TaskConfig{Store: first, TTL: time.Minute}),
		vurb.WithTasks(vurb.TaskConfig{Store: last}))
	created := createTask(t, app)
	is.Equal(created["ttlMs"], float64(time.Hour.Milliseconds())) // the default, not the first's minute
	is.Equal(first.Len(), 0)
	is.Equal(last.Len(), 1)
}

// TestWithTasksBesideWithReplicas: a TaskConfig without a Store keeps the
// tasks in the store the replicas share, its other fields still holding;
// one with a Store keeps them there instead, whatever the options' order.
func TestWithTasksBesideWithReplicas(t *testing.T) {
	key := vurb.WithRequestStateKeys(make([]byte, 32))
	t.Run("no store", func(t *testing.T) {
		is := is.New(t)
		shared := store.NewMemoryTasks(0)
		app := vurb.New(key, vurb.WithReplicas(store.Replicas{Tasks: shared}),
			vurb.WithTasks(vurb.TaskConfig{TTL: 2 * time.Minute}))
		created := createTask(t, app)
		is.Equal(created["ttlMs"], float64((2 * time.Minute).Milliseconds()))
		is.Equal(shared.Len(), 1)
	})
	t.Run("own store", func(t *testing.T) {
		is := is.New(t)
		shared, own := store.NewMemoryTasks(0), store.NewMemoryTasks(0)
		app := vurb.New(key, vurb.WithTasks(vurb.TaskConfig{Store: own}),
			vurb.WithReplicas(store.Replicas{Tasks: shared}))
		createTask(t, app)
		is.Equal(shared.Len(), 0)
		is.Equal(own.Len(), 1)
	})
}
