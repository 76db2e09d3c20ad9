package redisstate_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/store"
)

// Each replica of a server makes its own Redis client and Store, with the
// same request-state key, and gives the app the store's tasks: a task any
// replica created, any other reads and changes.
func ExampleNew() {
	key := []byte(os.Getenv("STATE_KEY")) // 32 random bytes, the same on every replica
	if len(key) == 0 {
		key = []byte("an example key; use 32 random bytes")
	}
	replica := func() (*vurb.App, *redisstate.Store) {
		client := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR"), ContextTimeoutEnabled: true})
		state := redisstate.New(client, redisstate.WithPrefix("example:"))
		app := vurb.New(vurb.WithRequestStateKeys(key), vurb.WithTasks(vurb.TaskConfig{Store: state.Tasks()}))
		vurb.Mutation(app, "reports.build", func(context.Context, struct{}) (string, error) {
			return "report ready", nil
		}).Task()
		return app, state
	}
	_, first := replica()
	_, second := replica()

	ctx := context.Background()
	now := time.Now()
	task := &store.Task{ID: rand.Text(), Caller: "alice", Status: store.TaskWorking,
		CreatedAt: now, UpdatedAt: now, TTL: time.Minute, Tool: "reports_build"}
	if err := first.Tasks().Create(ctx, task); err != nil {
		fmt.Println(err)
		return
	}
	_, err := second.Tasks().Update(ctx, task.ID, func(t *store.Task) error {
		t.Status, t.StatusMessage = store.TaskCompleted, "report ready"
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	got, err := first.Tasks().Get(ctx, task.ID)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(got.Status, "-", got.StatusMessage)
	// Output:
	// completed - report ready
}

// The bus every replica of a server subscribes to, which
// vurb.WithReplicas gives the app: what one replica publishes, every
// subscription receives, in order.
func ExampleBus() {
	client := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR"), ContextTimeoutEnabled: true})
	defer client.Close()
	bus := redisstate.New(client, redisstate.WithPrefix("example-bus:")).Bus()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // ends the subscription
	got := make(chan string, 8)
	bus.Subscribe(ctx, func(msg []byte) { got <- string(msg) })

	// Subscribe returns at once: a message published before the
	// subscription is made reaches nobody (0 receivers).
	for {
		n, err := bus.Publish(ctx, []byte("session ended"))
		if err != nil {
			fmt.Println(err)
			return
		}
		if n > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println(<-got)
	// Output: session ended
}
