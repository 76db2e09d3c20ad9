package vurb_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

// cutStore is a replica's view of a shared task store through a link the
// test can cut, as a replica cut off from Redis sees it.
type cutStore struct {
	store.Tasks
	cut atomic.Bool
}

var errLinkCut = errors.New("redis-link: i/o timeout")

func (s *cutStore) Create(ctx context.Context, rec *store.Task) error {
	if s.cut.Load() {
		return errLinkCut
	}
	return s.Tasks.Create(ctx, rec)
}

func (s *cutStore) Get(ctx context.Context, id string) (*store.Task, error) {
	if s.cut.Load() {
		return nil, errLinkCut
	}
	return s.Tasks.Get(ctx, id)
}

func (s *cutStore) Update(ctx context.Context, id string, f func(*store.Task) error) (*store.Task, error) {
	if s.cut.Load() {
		return nil, errLinkCut
	}
	return s.Tasks.Update(ctx, id, f)
}

// leaseReplicas are two replicas sharing one task store, the first
// through a link the test can cut; release ends the first's call.
func leaseReplicas(t *testing.T, cfg vurb.TaskConfig) (a, b *vurb.App, link *cutStore, release chan struct{}) {
	t.Helper()
	shared := store.NewMemoryTasks(store.DefaultMaxTasks)
	link = &cutStore{Tasks: shared}
	release = make(chan struct{})
	replica := func(tasks store.Tasks) *vurb.App {
		c := cfg
		c.Store = tasks
		app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithRequestStateKeys([]byte("0123456789abcdef0123456789abcdef")),
			vurb.WithTasks(c))
		vurb.Query(app, "jobs.build", func(ctx context.Context, _ struct{}) (string, error) {
			<-release
			return "built", nil
		}).Task()
		return app
	}
	return replica(link), replica(shared), link, release
}

// A replica cut off from the store stops renewing the lease of the task
// it runs: once the lease is over, every other replica reads the task as
// failed, saying why, instead of "working" until its TTL.
func TestTaskOfAReplicaCutFromTheStoreFailsAtItsLease(t *testing.T) {
	is := is.New(t)
	a, b, link, release := leaseReplicas(t, vurb.TaskConfig{Lease: 300 * time.Millisecond, RetryFor: 100 * time.Millisecond})
	defer close(release)
	ha, hb := a.HTTPHandler(), b.HTTPHandler()
	id := startTask(t, ha, "jobs_build")
	time.Sleep(250 * time.Millisecond) // a renewal or two go through
	_, resp := taskRPC(t, hb, tasksCaps, "tasks/get", id, `"taskId":"`+id+`"`)
	is.Equal(result(t, resp)["status"], "working")
	link.cut.Store(true)
	time.Sleep(450 * time.Millisecond)
	_, resp = taskRPC(t, hb, tasksCaps, "tasks/get", id, `"taskId":"`+id+`"`)
	task := result(t, resp)
	is.Equal(task["status"], "failed")
	is.True(strings.Contains(task["statusMessage"].(string), "replica running it stopped"))
}

// A store that fails as a task's call returns does not lose its outcome:
// the replica keeps it and writes it once the store takes it again.
func TestTaskOutcomeIsWrittenOnceTheStoreIsBack(t *testing.T) {
	is := is.New(t)
	a, b, link, release := leaseReplicas(t, vurb.TaskConfig{})
	ha, hb := a.HTTPHandler(), b.HTTPHandler()
	id := startTask(t, ha, "jobs_build")
	link.cut.Store(true)
	close(release)
	time.Sleep(300 * time.Millisecond) // the outcome's first writes fail
	_, resp := taskRPC(t, hb, tasksCaps, "tasks/get", id, `"taskId":"`+id+`"`)
	is.Equal(result(t, resp)["status"], "working")
	link.cut.Store(false)
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, resp = taskRPC(t, hb, tasksCaps, "tasks/get", id, `"taskId":"`+id+`"`)
		if result(t, resp)["status"] == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the outcome was never written: %v", resp)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
