package redisstate_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/redisstate"
)

// Faults as an operator meets them, between real replicas and a real
// redis-server: one replica cut from Redis, and Redis slowed by 20 to
// 300 ms a hop under load. Whatever the fault, a live session is never
// answered 404 (503 with Retry-After while the store cannot say), a call
// runs at most once, and a task the store acknowledged is never lost.

// taskCaps is the _meta of a 2026-07-28 request that declares the tasks
// extension.
const taskCaps = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

// callNow calls tool at url without a session (2026-07-28), declaring
// the tasks extension.
func callNow(t *testing.T, url, token, tool string) answer {
	t.Helper()
	return send(t, http.MethodPost, url, token, "", "2026-07-28", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"`+tool+`","arguments":{},`+taskCaps+`}}`)
}

// taskAt asks url for the task id, without a session.
func taskAt(t *testing.T, url, token, id string) answer {
	t.Helper()
	return send(t, http.MethodPost, url, token, "", "2026-07-28", `{"jsonrpc":"2.0","id":4,"method":"tasks/get","params":{"taskId":"`+id+`",`+taskCaps+`}}`)
}

// field reads one string field of a's result.
func (a answer) field(name string) string {
	var m map[string]any
	_ = json.Unmarshal(a.result, &m)
	s, _ := m[name].(string)
	return s
}

// waitSaved waits until the session's record is in Redis, initialized.
func waitSaved(t *testing.T, rdb *redis.Client, app, session string) {
	t.Helper()
	key := "vurb:" + app + ":session:" + session
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(rdb.Get(context.Background(), key).Val(), `"initialized":true`); {
		if time.Now().After(deadline) {
			t.Fatalf("session %s never saved", session)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// One replica loses Redis (a partition; the others keep it). It serves
// the sessions it holds from memory and every sessionless call; a session
// it does not hold is 503 with Retry-After there, never 404, and goes on
// on the other replicas; a task it cannot read is "retry", never "not
// found". Healed, it serves them all again.
func TestReplicaCutFromTheStore(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	cut := newLink(t, rs.Addr)
	f := fleetOver(t, "cut", []*redisstate.Store{redisstate.New(rs.client(t)), redisstate.New(rs.client(t)), redisstate.New(cut.client(t))}, nil)
	held, elsewhere := open(t, f.urls[2], "alice-token"), open(t, f.urls[0], "alice-token")
	waitSaved(t, rs.client(t), "cut", held)
	waitSaved(t, rs.client(t), "cut", elsewhere)
	started := callNow(t, f.urls[0], "alice-token", "jobs_run")
	is.Equal(started.field("resultType"), "task")
	id := started.field("taskId")

	cut.setCut(true)
	for range 3 {
		is.True(callIn(t, f.urls[2], "alice-token", held, "docs_read").works()) // from memory
		a := callIn(t, f.urls[2], "alice-token", elsewhere, "docs_read")
		if a.status != http.StatusServiceUnavailable || a.header.Get("Retry-After") == "" {
			t.Fatalf("a session the cut replica does not hold: %d %s", a.status, a.body)
		}
		is.True(callIn(t, f.urls[1], "alice-token", elsewhere, "docs_read").works()) // the others go on
		is.True(callNow(t, f.urls[2], "alice-token", "docs_read").works())           // sessionless needs no store
		got := taskAt(t, f.urls[2], "alice-token", id)
		is.True(got.rpcErr != nil)
		is.True(!strings.Contains(got.rpcErr.Message, "not found")) // unknown is not absent
	}
	before := f.runs.Load()
	run := callNow(t, f.urls[2], "alice-token", "jobs_run") // no store to keep a task in
	if !run.works() {
		t.Fatalf("jobs_run on the cut replica: %d %s", run.status, run.body)
	}
	is.Equal(run.field("resultType"), "complete") // served as it came, said in the log
	is.Equal(f.runs.Load(), before+1)

	cut.setCut(false)
	for deadline := time.Now().Add(5 * time.Second); !callIn(t, f.urls[2], "alice-token", elsewhere, "docs_read").works(); {
		if time.Now().After(deadline) {
			t.Fatal("healed, the replica never served the session again")
		}
		time.Sleep(50 * time.Millisecond)
	}
	is.Equal(taskAt(t, f.urls[2], "alice-token", id).field("status"), "completed")
}

// Redis slowed by 20 to 300 ms a round trip on every replica's link,
// while clients call sessions and start tasks on any replica. With the
// store's default timeout (250 ms) some calls meet it: every answer is a
// result, or a 503 with Retry-After, or a task call served at once, never
// a 404; each call runs at most once; every task the store acknowledged
// completes once the store is quick again. With a timeout above the
// latency, as an operator who knows the link sets it, nothing is refused.
func TestStoreSlowedUnderLoad(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
	}{{"default timeout", 0}, {"timeout above the latency", 2 * time.Second}} {
		t.Run(tc.name, func(t *testing.T) { slowedUnderLoad(t, tc.timeout) })
	}
}

func slowedUnderLoad(t *testing.T, timeout time.Duration) {
	is := is.New(t)
	rs := startRedis(t)
	links := []*link{newLink(t, rs.Addr), newLink(t, rs.Addr), newLink(t, rs.Addr)}
	stores := make([]*redisstate.Store, len(links))
	for i, l := range links {
		var opts []redisstate.Option
		if timeout > 0 {
			opts = append(opts, redisstate.WithTimeout(timeout))
		}
		stores[i] = redisstate.New(l.client(t), opts...)
	}
	f := fleetOver(t, "slow", stores, nil)
	var sessions []string
	for i := range f.urls {
		s := open(t, f.urls[i], "alice-token")
		waitSaved(t, rs.client(t), "slow", s)
		sessions = append(sessions, s)
	}
	for _, l := range links {
		l.slow(20*time.Millisecond, 300*time.Millisecond)
	}

	var (
		mu                                sync.Mutex
		tasks                             []string
		calls, jobCalls, inline, refusals int
		wg                                sync.WaitGroup
	)
	until := time.Now().Add(3 * time.Second)
	for w := range 6 {
		wg.Go(func() {
			for time.Now().Before(until) {
				url := f.urls[rand.N(len(f.urls))]
				var a answer
				job := w%2 == 0
				if job {
					a = callNow(t, url, "alice-token", "jobs_run")
				} else {
					a = callIn(t, url, "alice-token", sessions[rand.N(len(sessions))], "docs_read")
				}
				mu.Lock()
				calls++
				switch {
				case a.works() && job && a.field("resultType") == "task":
					jobCalls++
					tasks = append(tasks, a.field("taskId"))
				case a.works() && job:
					jobCalls++
					inline++
				case a.works():
				case a.status == http.StatusServiceUnavailable && a.header.Get("Retry-After") != "":
					refusals++
				default:
					t.Errorf("under a slow store: %d %s", a.status, a.body)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("%d calls: %d of jobs_run (%d tasks, %d served at once), %d refused for the store", calls, jobCalls, len(tasks), inline, refusals)
	is.True(int(f.runs.Load()) <= jobCalls) // no call ran twice
	if timeout > 0 {
		is.Equal(refusals, 0)
		is.Equal(inline, 0)
	}

	for _, l := range links {
		l.slow(0, 0)
	}
	for _, id := range tasks {
		deadline := time.Now().Add(10 * time.Second)
		for {
			got := taskAt(t, f.urls[rand.N(len(f.urls))], "alice-token", id)
			if got.field("status") == "completed" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("task %s, acknowledged, never completed: %s", id, got.body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	is.Equal(int(f.runs.Load()), jobCalls) // every call that answered ran, once
	for i, s := range sessions {
		is.True(callIn(t, f.urls[(i+1)%len(f.urls)], "alice-token", s, "docs_read").works()) // every session lives on
	}
}

// Redis restarts empty while a task runs on one replica: polled at once
// on another, the task reads working, never lost (the replica that runs
// it saves its record again, asked on the bus), and its outcome is
// recorded and read on every replica.
func TestTaskOutlivesARedisRestart(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	f := attackFleet(t, rs, "task-restart", 2, nil)
	started := callNow(t, f.urls[0], "alice-token", "jobs_wait")
	is.Equal(started.field("resultType"), "task")
	id := started.field("taskId")
	for len(rs.client(t).Keys(context.Background(), "vurb:task-restart:session:vurb-marker-*").Val()) < 2 {
		time.Sleep(10 * time.Millisecond) // each replica has seen the store once: a restart is news to it
	}
	rs.stop()
	rs.restart(t)
	is.Equal(rs.client(t).DBSize(context.Background()).Val(), int64(0)) // nothing kept
	for deadline := time.Now().Add(5 * time.Second); ; {
		got := taskAt(t, f.urls[1], "alice-token", id)
		if got.field("status") == "working" {
			break
		}
		if got.rpcErr == nil || strings.Contains(got.rpcErr.Message, "lost") || strings.Contains(got.rpcErr.Message, "not found") || time.Now().After(deadline) {
			t.Fatalf("a running task after a restart: %d %s", got.status, got.body)
		}
		time.Sleep(50 * time.Millisecond) // the store still coming back: retry later
	}
	close(f.release)
	for _, url := range f.urls {
		for deadline := time.Now().Add(5 * time.Second); taskAt(t, url, "alice-token", id).field("status") != "completed"; {
			if time.Now().After(deadline) {
				t.Fatalf("the task never read completed at %s", url)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
