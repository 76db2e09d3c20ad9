package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/store"
)

func TestMemoryTasksBounds(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s := store.NewMemoryTasks(2)
	now := time.Now()
	is.NoErr(s.Create(ctx, &store.Task{ID: "long", Status: store.TaskWorking, CreatedAt: now, TTL: time.Hour}))
	is.NoErr(s.Create(ctx, &store.Task{ID: "short", Status: store.TaskWorking, CreatedAt: now, TTL: time.Millisecond}))
	is.True(s.Create(ctx, &store.Task{ID: "long", CreatedAt: now, TTL: time.Hour}) != nil) // ids are unique

	time.Sleep(5 * time.Millisecond)
	_, err := s.Get(ctx, "short")
	is.True(errors.Is(err, store.ErrTaskNotFound)) // past its TTL
	is.NoErr(s.Create(ctx, &store.Task{ID: "third", CreatedAt: time.Now(), TTL: time.Hour}))
	err = s.Create(ctx, &store.Task{ID: "fourth", CreatedAt: time.Now(), TTL: time.Hour})
	is.True(errors.Is(err, store.ErrTasksFull)) // no live task is dropped to make room
	is.Equal(s.Len(), 2)

	// Records go in and out as copies; Update is all or nothing.
	got, err := s.Get(ctx, "long")
	is.NoErr(err)
	got.Status = store.TaskFailed
	again, _ := s.Get(ctx, "long")
	is.Equal(again.Status, store.TaskWorking)
	_, err = s.Update(ctx, "long", func(r *store.Task) error {
		r.Status = store.TaskCompleted
		return errors.New("changed my mind")
	})
	is.True(err != nil)
	again, _ = s.Get(ctx, "long")
	is.Equal(again.Status, store.TaskWorking)
	updated, err := s.Update(ctx, "long", func(r *store.Task) error { r.Status = store.TaskCompleted; return nil })
	is.NoErr(err)
	is.Equal(updated.Status, store.TaskCompleted)
	_, err = s.Update(ctx, "missing", func(*store.Task) error { return nil })
	is.True(errors.Is(err, store.ErrTaskNotFound))
}

// A caller's finished tasks never keep it from running more: when its
// share is full, its own oldest finished task goes (early) to make room.
// Unfinished work still counts, and nobody else's task is touched.
func TestFinishedTasksMakeRoomForTheirCaller(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s := store.NewMemoryTasks(100, store.WithPerCaller(2, 0))
	task := func(id, caller string) *store.Task {
		return &store.Task{ID: id, Caller: caller, Status: store.TaskWorking, CreatedAt: time.Now(), TTL: time.Hour}
	}
	is.NoErr(s.Create(ctx, task("a1", "alice")))
	is.NoErr(s.Create(ctx, task("a2", "alice")))
	is.NoErr(s.Create(ctx, task("b1", "bob")))
	err := s.Create(ctx, task("a3", "alice"))
	is.True(errors.Is(err, store.ErrTasksFull))                                   // two unfinished: her share
	is.True(strings.Contains(err.Error(), "this caller runs 2 unfinished tasks")) // says why

	_, err = s.Update(ctx, "a1", func(r *store.Task) error { r.Status = store.TaskCompleted; return nil })
	is.NoErr(err)
	is.NoErr(s.Create(ctx, task("a3", "alice"))) // a1 made room
	_, err = s.Get(ctx, "a1")
	is.True(errors.Is(err, store.ErrTaskNotFound)) // her oldest finished task went
	_, err = s.Get(ctx, "b1")
	is.NoErr(err)                                                              // bob's is untouched
	is.True(errors.Is(s.Create(ctx, task("a4", "alice")), store.ErrTasksFull)) // a2 and a3 run
	is.Equal(s.Len(), 3)
}

// A caller's share is a sixteenth of the store, but a small store is not
// cut in sixteen.
func TestCallerShare(t *testing.T) {
	is := is.New(t)
	for _, c := range []struct {
		maxTasks, tasks int
		maxBytes, bytes int64
	}{
		{store.DefaultMaxTasks, 625, store.DefaultMaxBytes, 16 << 20},
		{100, 16, 4 << 20, 1 << 20},
		{10, 10, 1 << 10, 1 << 10},
	} {
		tasks, bytes := store.CallerShare(c.maxTasks, c.maxBytes)
		is.Equal(tasks, c.tasks)
		is.Equal(bytes, c.bytes)
	}
}
