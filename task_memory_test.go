package vurb_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

func TestMemoryTaskStoreBounds(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s := vurb.NewMemoryTaskStore(2)
	now := time.Now()
	is.NoErr(s.Create(ctx, &vurb.TaskRecord{ID: "long", Status: vurb.TaskWorking, CreatedAt: now, TTL: time.Hour}))
	is.NoErr(s.Create(ctx, &vurb.TaskRecord{ID: "short", Status: vurb.TaskWorking, CreatedAt: now, TTL: time.Millisecond}))
	is.True(s.Create(ctx, &vurb.TaskRecord{ID: "long", CreatedAt: now, TTL: time.Hour}) != nil) // ids are unique

	time.Sleep(5 * time.Millisecond)
	_, err := s.Get(ctx, "short")
	is.True(errors.Is(err, vurb.ErrTaskNotFound)) // past its TTL
	is.NoErr(s.Create(ctx, &vurb.TaskRecord{ID: "third", CreatedAt: time.Now(), TTL: time.Hour}))
	err = s.Create(ctx, &vurb.TaskRecord{ID: "fourth", CreatedAt: time.Now(), TTL: time.Hour})
	is.True(errors.Is(err, vurb.ErrTaskStoreFull)) // no live task is dropped to make room
	is.Equal(s.Len(), 2)

	// Records go in and out as copies; Update is all or nothing.
	got, err := s.Get(ctx, "long")
	is.NoErr(err)
	got.Status = vurb.TaskFailed
	again, _ := s.Get(ctx, "long")
	is.Equal(again.Status, vurb.TaskWorking)
	_, err = s.Update(ctx, "long", func(r *vurb.TaskRecord) error {
		r.Status = vurb.TaskCompleted
		return errors.New("changed my mind")
	})
	is.True(err != nil)
	again, _ = s.Get(ctx, "long")
	is.Equal(again.Status, vurb.TaskWorking)
	updated, err := s.Update(ctx, "long", func(r *vurb.TaskRecord) error { r.Status = vurb.TaskCompleted; return nil })
	is.NoErr(err)
	is.Equal(updated.Status, vurb.TaskCompleted)
	_, err = s.Update(ctx, "missing", func(*vurb.TaskRecord) error { return nil })
	is.True(errors.Is(err, vurb.ErrTaskNotFound))
}

// TestTaskStoreFull: past the store's bound, an action that may run
// synchronously does; a task-only one is refused.
func TestTaskStoreFull(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "jobs.quick", func(context.Context, struct{}) (string, error) { return "quick", nil }).Task()
	vurb.Query(app, "jobs.only", func(context.Context, struct{}) (string, error) { return "ran", nil }).Task(vurb.WithTaskRequired())
	app.ConfigureTasks(vurb.TaskConfig{Store: vurb.NewMemoryTaskStore(1), TTL: time.Minute})
	h := app.HTTPHandler()

	first := startTask(t, h, "jobs_only")
	is.Equal(waitTask(t, h, first, "completed")["ttlMs"], float64(60000))
	_, resp := taskRPC(t, h, tasksCaps, "tools/call", "jobs_only", `"name":"jobs_only","arguments":{}`)
	is.Equal(rpcCode(resp), float64(-32603)) // task-only, and no room
	_, resp = taskRPC(t, h, tasksCaps, "tools/call", "jobs_quick", `"name":"jobs_quick","arguments":{}`)
	res := result(t, resp)
	is.Equal(res["resultType"], "complete") // served synchronously instead
	is.Equal(textOfResult(t, res), "quick")
}
