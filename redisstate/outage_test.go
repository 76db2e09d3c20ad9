package redisstate_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/store"
)

// call is one method of the stores, as a request would make it.
type call struct {
	name string
	do   func() error
}

// calls are every method of st, on task and session records that exist
// (unless Redis lost them).
func calls(st *redisstate.Store, task string) []call {
	tasks, sessions := st.Tasks(), st.Sessions()
	return []call{
		{"Create", func() error { return tasks.Create(ctx, record("alice", time.Minute)) }},
		{"Get", func() error { _, err := tasks.Get(ctx, task); return err }},
		{"Update", func() error {
			_, err := tasks.Update(ctx, task, func(t *store.Task) error { t.StatusMessage = "on"; return nil })
			return err
		}},
		{"Save", func() error { return sessions.Save(ctx, &store.Session{ID: "s"}, time.Minute) }},
		{"Load", func() error { _, err := sessions.Load(ctx, "s"); return err }},
		{"Delete", func() error { return sessions.Delete(ctx, "s") }},
	}
}

// failsFast checks that every call fails within timeout (and some
// slack), with an error that names the store and is not a "not found",
// which would tell the client its task is gone.
func failsFast(t *testing.T, st *redisstate.Store, task string, timeout time.Duration, why string) {
	t.Helper()
	for _, c := range calls(st, task) {
		start := time.Now()
		err := c.do()
		took := time.Since(start)
		switch {
		case err == nil:
			t.Fatalf("%s with Redis %s: no error", c.name, why)
		case errors.Is(err, store.ErrTaskNotFound) || errors.Is(err, store.ErrSessionNotFound):
			t.Fatalf("%s with Redis %s: %v; want the outage, not a missing record", c.name, why, err)
		case !strings.HasPrefix(err.Error(), "redisstate: "):
			t.Fatalf("%s with Redis %s: %q does not say it is the store's", c.name, why, err)
		case took > timeout+200*time.Millisecond:
			t.Fatalf("%s with Redis %s took %v; the timeout is %v", c.name, why, took, timeout)
		}
		t.Logf("%s with Redis %s: %v after %v", c.name, why, err, took.Round(time.Millisecond))
	}
}

// works checks that every call succeeds, and returns a task that exists.
func works(t *testing.T, st *redisstate.Store) string {
	t.Helper()
	rec := record("alice", time.Minute)
	if err := st.Tasks().Create(ctx, rec); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if err := st.Sessions().Save(ctx, &store.Session{ID: "s"}, time.Minute); err != nil {
		t.Fatalf("Save: %v", err)
	}
	for _, c := range calls(st, rec.ID) {
		if err := c.do(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	return rec.ID
}

// With Redis stopped, every method fails within the store's timeout,
// saying why, and calls that fail leave no goroutine behind; once Redis
// is back (empty, as a restart without persistence leaves it), the same
// stores work again. It does not run in parallel with other tests, whose
// goroutines would blur the count.
func TestRedisDownFailsFastThenRecovers(t *testing.T) {
	is := is.New(t)
	srv := startRedis(t)
	stores := []struct {
		st      *redisstate.Store
		timeout time.Duration
	}{
		{redisstate.New(srv.client(t)), redisstate.DefaultTimeout},
		{redisstate.New(srv.client(t), redisstate.WithTimeout(50*time.Millisecond)), 50 * time.Millisecond},
	}
	var tasks []string
	for _, s := range stores {
		tasks = append(tasks, works(t, s.st))
	}

	srv.stop()
	for i, s := range stores {
		failsFast(t, s.st, tasks[i], s.timeout, "down")
	}
	before := runtime.NumGoroutine()
	for range 5 {
		for _, c := range calls(stores[1].st, tasks[1]) {
			_ = c.do()
		}
	}
	if after := runtime.NumGoroutine(); after > before+2 {
		t.Fatalf("%d goroutines after 30 failed calls, %d before", after, before)
	}

	srv.restart(t)
	for _, s := range stores {
		recovered(t, s.st)
		id := works(t, s.st)
		_, err := s.st.Tasks().Get(ctx, id)
		is.NoErr(err)
	}
}

// recovered waits until st answers again. go-redis stops dialing a Redis
// that refused as many dials as its pool has connections, failing at once
// instead, and probes it once a second: service resumes within about a
// second of Redis coming back.
func recovered(t *testing.T, st *redisstate.Store) {
	t.Helper()
	start := time.Now()
	for {
		_, err := st.Sessions().Load(ctx, "probe")
		if errors.Is(err, store.ErrSessionNotFound) {
			t.Logf("Redis back: the store answers again after %v", time.Since(start).Round(time.Millisecond))
			return
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("Redis back for 5 s, the store still fails: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
