package redisstate_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/store"
)

var ctx = context.Background()

// record is a new working task of caller, kept for ttl.
func record(caller string, ttl time.Duration) *store.Task {
	now := time.Now().UTC()
	return &store.Task{ID: rand.Text(), Owner: "owner-" + caller, Caller: caller, Status: store.TaskWorking,
		CreatedAt: now, UpdatedAt: now, TTL: ttl, PollInterval: time.Second,
		Tool: "jobs_run", Arguments: json.RawMessage(`{"n":1}`), Version: "2026-07-28"}
}

// A task is found as created; Update changes it, returns it as stored,
// keeps its ID and Caller, and drops the change when fn fails.
func TestTaskCreateGetUpdate(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := redisstate.New(startRedis(t).client(t)).Tasks()
	rec := record("alice", time.Minute)
	is.NoErr(s.Create(ctx, rec))
	got, err := s.Get(ctx, rec.ID)
	is.NoErr(err)
	is.Equal(got, rec)
	is.True(got != rec) // a copy

	updated, err := s.Update(ctx, rec.ID, func(t *store.Task) error {
		t.Status, t.StatusMessage = store.TaskCompleted, "done"
		t.Result = json.RawMessage(`{"content":[]}`)
		t.ID, t.Caller = "other", "mallory" // not the store's to change
		return nil
	})
	is.NoErr(err)
	is.Equal(updated.ID, rec.ID)
	is.Equal(updated.Caller, "alice")
	is.Equal(updated.Status, store.TaskCompleted)
	got, err = s.Get(ctx, rec.ID)
	is.NoErr(err)
	is.Equal(got, updated)

	refused := errors.New("no")
	_, err = s.Update(ctx, rec.ID, func(t *store.Task) error {
		t.StatusMessage = "changed"
		return refused
	})
	is.Equal(err, refused) // fn's error, as it is
	got, err = s.Get(ctx, rec.ID)
	is.NoErr(err)
	is.Equal(got.StatusMessage, "done") // unchanged

	err = s.Create(ctx, rec)
	is.True(err != nil && strings.Contains(err.Error(), "exists already"))
}

// An unknown task is store.ErrTaskNotFound to Get and Update.
func TestTaskNotFound(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := redisstate.New(startRedis(t).client(t)).Tasks()
	_, err := s.Get(ctx, "nope")
	is.True(errors.Is(err, store.ErrTaskNotFound))
	called := false
	_, err = s.Update(ctx, "nope", func(*store.Task) error { called = true; return nil })
	is.True(errors.Is(err, store.ErrTaskNotFound))
	is.True(!called)
}

// A task's key expires at the record's Expires time: then Get and Update
// no longer find it, and Redis holds nothing of it once its space is
// reclaimed.
func TestTaskExpires(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	rdb := srv.client(t)
	s := redisstate.New(rdb).Tasks()
	rec := record("alice", 300*time.Millisecond)
	is.NoErr(s.Create(ctx, rec))
	ttl, err := rdb.PTTL(ctx, redisstate.DefaultPrefix+"task:"+rec.ID).Result()
	is.NoErr(err)
	if ttl <= 200*time.Millisecond || ttl > 300*time.Millisecond {
		t.Fatalf("the record's key expires in %v; want the 300 ms left of its TTL", ttl)
	}
	_, err = s.Update(ctx, rec.ID, func(t *store.Task) error { t.StatusMessage = "half way"; return nil })
	is.NoErr(err)
	ttl, err = rdb.PTTL(ctx, redisstate.DefaultPrefix+"task:"+rec.ID).Result()
	is.NoErr(err)
	is.True(ttl > 0 && ttl <= 300*time.Millisecond) // an update keeps the expiry

	time.Sleep(350 * time.Millisecond)
	_, err = s.Get(ctx, rec.ID)
	is.True(errors.Is(err, store.ErrTaskNotFound))
	_, err = s.Update(ctx, rec.ID, func(*store.Task) error { return nil })
	is.True(errors.Is(err, store.ErrTaskNotFound))

	is.NoErr(s.Create(ctx, record("bob", time.Minute))) // reclaims alice's
	keys, err := rdb.Keys(ctx, "*").Result()
	is.NoErr(err)
	callers, err := rdb.HGetAll(ctx, redisstate.DefaultPrefix+"{tasks}:callers").Result()
	is.NoErr(err)
	is.Equal(callers, map[string]string{"bob": "1"})
	for _, k := range keys {
		if strings.Contains(k, rec.ID) {
			t.Fatalf("key %q of an expired task still in Redis", k)
		}
	}
	meta, err := rdb.HLen(ctx, redisstate.DefaultPrefix+"{tasks}:meta").Result()
	is.NoErr(err)
	is.Equal(meta, int64(1))
}

// The store holds at most its bound of tasks, over all callers; the
// space of expired tasks is reclaimed when a new one needs it.
func TestTaskStoreFull(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	s := redisstate.New(srv.client(t), redisstate.WithMaxTasks(4)).Tasks()
	short := record("a", 200*time.Millisecond)
	is.NoErr(s.Create(ctx, short))
	for i := range 3 {
		is.NoErr(s.Create(ctx, record(fmt.Sprint("caller", i), time.Minute)))
	}
	err := s.Create(ctx, record("late", time.Minute))
	is.True(errors.Is(err, store.ErrTasksFull))
	is.True(!strings.Contains(err.Error(), "share")) // the store is full, not the caller's share

	time.Sleep(250 * time.Millisecond) // short expires: its place is free
	is.NoErr(s.Create(ctx, record("late", time.Minute)))
	is.True(errors.Is(s.Create(ctx, record("later", time.Minute)), store.ErrTasksFull))
}

// One caller holds at most its share of tasks and of bytes, so that it
// refuses nobody but itself; a task that grows past the share is refused
// and stays as it was; shrinking is always allowed.
func TestTaskPerCallerShare(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := redisstate.New(startRedis(t).client(t), redisstate.WithTaskPerCaller(3, 4096)).Tasks()
	var first *store.Task
	for i := range 3 {
		rec := record("alice", time.Minute)
		if i == 0 {
			first = rec
		}
		is.NoErr(s.Create(ctx, rec))
	}
	err := s.Create(ctx, record("alice", time.Minute))
	is.True(errors.Is(err, store.ErrTasksFull))
	is.True(strings.Contains(err.Error(), "this caller runs 3 unfinished tasks")) // says whose share
	is.NoErr(s.Create(ctx, record("bob", time.Minute)))                           // bob has his own

	big := json.RawMessage(`"` + strings.Repeat("x", 4096) + `"`)
	_, err = s.Update(ctx, first.ID, func(t *store.Task) error { t.Result = big; return nil })
	is.True(errors.Is(err, store.ErrTasksFull))
	got, err := s.Get(ctx, first.ID)
	is.NoErr(err)
	is.Equal(len(got.Result), 0) // unchanged
	_, err = s.Update(ctx, first.ID, func(t *store.Task) error { t.Arguments = nil; return nil })
	is.NoErr(err) // shrinking fits
}

// A caller's finished tasks never keep it from running more: when its
// share is full, its own oldest finished task goes (early, record and
// bookkeeping) to make room, on every replica. Unfinished work still
// counts, and nobody else's task is touched.
func TestTaskFinishedMakeRoomForTheirCaller(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	one := redisstate.New(srv.client(t), redisstate.WithTaskPerCaller(2, 0)).Tasks()
	two := redisstate.New(srv.client(t), redisstate.WithTaskPerCaller(2, 0)).Tasks()
	a1, a2, b1 := record("alice", time.Minute), record("alice", time.Minute), record("bob", time.Minute)
	is.NoErr(one.Create(ctx, a1))
	is.NoErr(two.Create(ctx, a2))
	is.NoErr(one.Create(ctx, b1))
	err := two.Create(ctx, record("alice", time.Minute))
	is.True(errors.Is(err, store.ErrTasksFull))
	is.True(strings.Contains(err.Error(), "this caller runs 2 unfinished tasks"))

	_, err = one.Update(ctx, a1.ID, func(t *store.Task) error { t.Status = store.TaskCompleted; return nil })
	is.NoErr(err)
	a3 := record("alice", time.Minute)
	is.NoErr(two.Create(ctx, a3)) // a1 made room
	for _, s := range []*redisstate.TaskStore{one, two} {
		_, err = s.Get(ctx, a1.ID)
		is.True(errors.Is(err, store.ErrTaskNotFound)) // her oldest finished task went
		_, err = s.Get(ctx, b1.ID)
		is.NoErr(err) // bob's is untouched
	}
	is.True(errors.Is(one.Create(ctx, record("alice", time.Minute)), store.ErrTasksFull)) // a2 and a3 run

	// A finished task is dropped for room only once: the next refusal
	// counts what is left, and the dropped task is out of the count.
	_, err = one.Update(ctx, a2.ID, func(t *store.Task) error { t.Status = store.TaskFailed; return nil })
	is.NoErr(err)
	_, err = one.Update(ctx, a3.ID, func(t *store.Task) error { t.Status = store.TaskCancelled; return nil })
	is.NoErr(err)
	is.NoErr(one.Create(ctx, record("alice", time.Minute)))
	is.NoErr(two.Create(ctx, record("alice", time.Minute)))
	is.True(errors.Is(one.Create(ctx, record("alice", time.Minute)), store.ErrTasksFull))
}

// The bound of bytes over all callers holds as the bound of tasks does.
func TestTaskStoreMaxBytes(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := redisstate.New(startRedis(t).client(t), redisstate.WithMaxTaskBytes(2000), redisstate.WithTaskPerCaller(0, 2000)).Tasks()
	fitted := 0
	for i := range 20 {
		err := s.Create(ctx, record(fmt.Sprint("caller", i), time.Minute)) // about 300 bytes each
		if errors.Is(err, store.ErrTasksFull) {
			break
		}
		is.NoErr(err)
		fitted++
	}
	if fitted < 4 || fitted > 7 {
		t.Fatalf("%d tasks of about 300 bytes fit in 2000 bytes", fitted)
	}
}

// Updates from many goroutines on two replicas (two clients, two stores)
// at once all land: none is lost to another's write. The timeout is
// generous: this is about consistency, on a machine the other tests load.
func TestTaskConcurrentUpdatesOnTwoReplicas(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	generous := redisstate.WithTimeout(5 * time.Second)
	replicas := []*redisstate.TaskStore{redisstate.New(srv.client(t), generous).Tasks(), redisstate.New(srv.client(t), generous).Tasks()}
	rec := record("alice", time.Minute)
	is.NoErr(replicas[0].Create(ctx, rec))
	const goroutines, updates = 16, 8
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*updates)
	for g := range goroutines {
		s := replicas[g%2]
		wg.Go(func() {
			for u := range updates {
				_, err := s.Update(ctx, rec.ID, func(t *store.Task) error {
					if t.Answers == nil {
						t.Answers = map[string]json.RawMessage{}
					}
					t.Answers[fmt.Sprintf("g%d-u%d", g, u)] = json.RawMessage(`true`)
					return nil
				})
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got, err := replicas[1].Get(ctx, rec.ID)
	is.NoErr(err)
	is.Equal(len(got.Answers), goroutines*updates)
}

// Every key the task store writes expires: a record at its task's
// expiry, the bookkeeping with the latest task, so a store left idle
// leaves nothing in Redis, with no later Create needed to clear it.
func TestTaskKeysAllExpire(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	rdb := startRedis(t).client(t)
	s := redisstate.New(rdb).Tasks()
	short, long := record("alice", 200*time.Millisecond), record("bob", 400*time.Millisecond)
	is.NoErr(s.Create(ctx, short))
	is.NoErr(s.Create(ctx, long))
	_, err := s.Update(ctx, long.ID, func(t *store.Task) error { t.StatusMessage = "grown"; return nil })
	is.NoErr(err)
	_, err = s.Update(ctx, short.ID, func(t *store.Task) error { t.Status = store.TaskCompleted; return nil })
	is.NoErr(err)
	keys, err := rdb.Keys(ctx, "*").Result()
	is.NoErr(err)
	is.True(len(keys) >= 7) // two records and the bookkeeping, alice's finished task's among it
	for _, k := range keys {
		ttl, err := rdb.PTTL(ctx, k).Result()
		is.NoErr(err)
		if ttl <= 0 || ttl > 400*time.Millisecond {
			t.Errorf("key %q expires in %v; want within the latest task's 400 ms", k, ttl)
		}
	}
	time.Sleep(450 * time.Millisecond)
	keys, err = rdb.Keys(ctx, "*").Result()
	is.NoErr(err)
	is.Equal(keys, []string{})
}
