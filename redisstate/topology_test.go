package redisstate_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/store"
)

// The stores take any redis.UniversalClient: these checks run the same
// behaviour through a client of each topology (a Redis Cluster, a
// Sentinel set-up), each replica with a client of its own.

// replicaClient returns a new client of the topology under test, closed
// at the test's end.
type replicaClient func(t *testing.T) redis.UniversalClient

// patient bounds each method generously: a new cluster client first
// learns the slots, on a machine the other tests load; what is checked
// here is behaviour, not speed.
func patient(prefix string, opts ...redisstate.Option) []redisstate.Option {
	return append([]redisstate.Option{redisstate.WithPrefix(prefix), redisstate.WithTimeout(5 * time.Second)}, opts...)
}

// behaves checks, through two replicas' clients, what the stores promise:
// tasks, sessions, the ledger and the bus.
func behaves(t *testing.T, client replicaClient) {
	t.Run("tasks are created, read, updated and bounded", func(t *testing.T) { tasksBehave(t, client) })
	t.Run("tasks expire and leave nothing", func(t *testing.T) { tasksExpire(t, client) })
	t.Run("sessions are saved, loaded, deleted and admitted", func(t *testing.T) { sessionsBehave(t, client) })
	t.Run("the ledger spends a key once", func(t *testing.T) { ledgerSpends(t, client) })
	t.Run("the bus reaches the other replica", func(t *testing.T) { busDelivers(t, client) })
}

func tasksBehave(t *testing.T, client replicaClient) {
	is := is.New(t)
	opts := patient(t.Name()+":", redisstate.WithMaxTasks(4), redisstate.WithTaskPerCaller(3, 4096))
	first, second := redisstate.New(client(t), opts...).Tasks(), redisstate.New(client(t), opts...).Tasks()
	rec := record("alice", time.Minute)
	is.NoErr(first.Create(ctx, rec))
	got, err := second.Get(ctx, rec.ID)
	is.NoErr(err)
	is.Equal(got, rec)
	updated, err := second.Update(ctx, rec.ID, func(t *store.Task) error {
		t.Status, t.Result = store.TaskCompleted, json.RawMessage(`{"content":[]}`)
		return nil
	})
	is.NoErr(err)
	got, err = first.Get(ctx, rec.ID)
	is.NoErr(err)
	is.Equal(got, updated)
	is.True(strings.Contains(first.Create(ctx, rec).Error(), "exists already"))

	a2 := record("alice", time.Minute)
	is.NoErr(first.Create(ctx, a2))
	is.NoErr(second.Create(ctx, record("alice", time.Minute)))
	is.NoErr(first.Create(ctx, record("alice", time.Minute))) // her finished task makes room
	_, err = second.Get(ctx, rec.ID)
	is.True(errors.Is(err, store.ErrTaskNotFound)) // and is gone
	err = first.Create(ctx, record("alice", time.Minute))
	is.True(errors.Is(err, store.ErrTasksFull))
	is.True(strings.Contains(err.Error(), "this caller runs 3 unfinished tasks")) // alice's share
	is.NoErr(second.Create(ctx, record("bob", time.Minute)))
	err = first.Create(ctx, record("carol", time.Minute))
	is.True(errors.Is(err, store.ErrTasksFull)) // the store's four
	is.True(!strings.Contains(err.Error(), "share"))
	big := json.RawMessage(`"` + strings.Repeat("x", 4096) + `"`)
	_, err = first.Update(ctx, a2.ID, func(t *store.Task) error { t.Result = big; return nil })
	is.True(errors.Is(err, store.ErrTasksFull)) // growth past alice's bytes
	_, err = first.Get(ctx, "nope")
	is.True(errors.Is(err, store.ErrTaskNotFound))
}

func tasksExpire(t *testing.T, client replicaClient) {
	is := is.New(t)
	prefix := t.Name() + ":"
	s := redisstate.New(client(t), patient(prefix)...).Tasks()
	rec := record("alice", 300*time.Millisecond)
	is.NoErr(s.Create(ctx, rec))
	_, err := s.Update(ctx, rec.ID, func(t *store.Task) error { t.StatusMessage = "half way"; return nil })
	is.NoErr(err)
	time.Sleep(350 * time.Millisecond)
	_, err = s.Get(ctx, rec.ID)
	is.True(errors.Is(err, store.ErrTaskNotFound))
	is.Equal(keys(t, client(t), prefix+"*"), []string{}) // the bookkeeping too
}

// keys lists the keys matching pattern on every master.
func keys(t *testing.T, c redis.UniversalClient, pattern string) []string {
	t.Helper()
	out := []string{}
	var mu sync.Mutex // ForEachMaster asks the masters at once
	scan := func(c *redis.Client) error {
		ks, err := c.Keys(ctx, pattern).Result()
		mu.Lock()
		defer mu.Unlock()
		out = append(out, ks...)
		return err
	}
	var err error
	if cc, ok := c.(*redis.ClusterClient); ok {
		err = cc.ForEachMaster(ctx, func(_ context.Context, c *redis.Client) error { return scan(c) })
	} else {
		err = scan(c.(*redis.Client))
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sessionsBehave(t *testing.T, client replicaClient) {
	is := is.New(t)
	prefix := patient(t.Name() + ":")
	first, second := redisstate.New(client(t), prefix...).Sessions(), redisstate.New(client(t), prefix...).Sessions()
	rec := &store.Session{ID: "s1", Subject: "alice", Caller: "alice", Version: "2025-11-25"}
	is.NoErr(first.Save(ctx, rec, time.Minute))
	got, err := second.Load(ctx, "s1")
	is.NoErr(err)
	is.Equal(got, rec)
	for _, id := range []string{"s2", "s3"} {
		is.NoErr(second.Save(ctx, &store.Session{ID: id, Caller: "alice"}, time.Minute))
	}
	var evicted []string
	for _, id := range []string{"s1", "s2", "s3"} {
		time.Sleep(2 * time.Millisecond) // each admitted later than the last
		evicted, err = first.Admit(ctx, &store.Session{ID: id, Caller: "alice"}, 2, time.Minute)
		is.NoErr(err)
	}
	is.Equal(evicted, []string{"s1"}) // alice's share is two: the oldest goes
	is.NoErr(second.Delete(ctx, "s1"))
	_, err = first.Load(ctx, "s1")
	is.True(errors.Is(err, store.ErrSessionNotFound))
}

func ledgerSpends(t *testing.T, client replicaClient) {
	is := is.New(t)
	prefix := patient(t.Name() + ":")
	first, second := redisstate.New(client(t), prefix...).Ledger(), redisstate.New(client(t), prefix...).Ledger()
	fresh, err := first.Spend(ctx, "state-1", time.Minute)
	is.NoErr(err)
	is.True(fresh)
	fresh, err = second.Spend(ctx, "state-1", time.Minute)
	is.NoErr(err)
	is.True(!fresh) // once for the deployment
}

func busDelivers(t *testing.T, client replicaClient) {
	prefix := patient(t.Name() + ":")
	first, second := redisstate.New(client(t), prefix...).Bus(), redisstate.New(client(t), prefix...).Bus()
	got := make(chan string, 16)
	sub, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	second.Subscribe(sub, func(msg []byte) { got <- string(msg) })
	// The subscription is made on its own goroutine: publish until it hears.
	for deadline := time.Now().Add(5 * time.Second); ; {
		if _, err := first.Publish(ctx, []byte("hello")); err != nil {
			t.Fatal(err)
		}
		select {
		case msg := <-got:
			if msg != "hello" {
				t.Fatalf("the other replica got %q", msg)
			}
			return
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the other replica never got the message")
		}
	}
}
