package vurb_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// Load: 32 go-sdk clients over streamable HTTP against HTTPHandler on a
// loopback server, half of them on the flat app and half on the grouped
// one, for loadCalls calls in all: valid calls whose answers are checked
// byte for byte, hostile calls from the catalogue with their exact texts,
// and calls whose handlers panic or pass a 50 ms deadline (honouring their
// context or not). Every call must be answered as expected, no call may fail
// in transport, and the heap after the run must be within 2x of before.
const (
	loadClients = 32
	loadCalls   = 20_000
	loadTimeout = 50 * time.Millisecond
)

// loadApp is the hostile app plus handlers that time out.
func loadApp(exp vurb.Exposition, deafRunning *atomic.Int64) *vurb.App {
	f := hostileApp(exp)
	slow := f.Tool("slow").Timeout(loadTimeout)
	vurb.Query(slow, "honour", func(ctx context.Context, _ noInput) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	vurb.Query(slow, "deaf", func(context.Context, noInput) (string, error) {
		deafRunning.Add(1)
		defer deafRunning.Add(-1)
		time.Sleep(loadTimeout + 30*time.Millisecond) // ignores ctx, but ends
		return "late", nil
	})
	return f
}

// loadCall is one planned call and what its answer must be.
type loadCall struct {
	name, args string
	kind       outcomeKind
	want       string         // exact text or protocol message
	match      *regexp.Regexp // instead of want (panics: the reference varies)
	// late is the result a handler that ignores its context returns after
	// the deadline. It must be dropped, but today it sometimes reaches the
	// client (see TestResultAfterTheDeadlineIsDropped); such answers are
	// counted and logged, not failed, until that bug is fixed.
	late string
}

var loadPanic = regexp.MustCompile(`^\[hostile(_| action=)boom\] internal error \(ref \w+\); the server has logged the details$`)

// loadPlan draws n calls for a client of exp.
func loadPlan(exp vurb.Exposition, client, n int, hostile []hostileCase) []loadCall {
	rng := rand.New(rand.NewPCG(uint64(client), 7))
	plan := make([]loadCall, n)
	for j := range plan {
		var c loadCall
		switch r := rng.IntN(100); {
		case r < 65: // valid, with a payload unique to the call
			in := HostileInput{
				Name:   fmt.Sprintf("client %d call %d ✓", client, j),
				Small:  int8(rng.IntN(256) - 128),
				Count:  uint(rng.Uint64() >> rng.IntN(64)),
				Big:    rng.Int64() - rng.Int64(),
				Ratio:  rng.Float64(),
				Flag:   rng.IntN(2) == 1,
				Tags:   []string{"a", fmt.Sprint(j)},
				Addr:   &hostileAddress{City: "Zürich"},
				Labels: map[string]string{"client": fmt.Sprint(client)},
				When:   time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(j) * time.Hour),
			}
			data, err := json.Marshal(in)
			if err != nil {
				panic(err)
			}
			c.name, c.args = wireCall(exp, "hostile", "echo", string(data))
			c.kind, c.want = accepted, string(data)
		case r < 70:
			c.name, c.args = wireCall(exp, "hostile", "ping", "{}")
			c.kind, c.want = accepted, "pong"
		case r < 88: // hostile
			h := hostile[rng.IntN(len(hostile))]
			c.name, c.args, c.kind, c.want = h.tool, h.args, h.kind, h.want
		case r < 94:
			c.name, c.args = wireCall(exp, "hostile", "boom", "{}")
			c.kind, c.match = toolError, loadPanic
		default:
			action := []string{"honour", "deaf"}[rng.IntN(2)]
			c.name, c.args = wireCall(exp, "slow", action, "{}")
			c.kind, c.want = toolError, timeoutText(exp, "slow", action, loadTimeout)
			if action == "deaf" {
				c.late = "late"
			}
		}
		plan[j] = c
	}
	return plan
}

// loadHostile is the part of the catalogue a client can send over HTTP in
// bulk: no known bug, nothing only App.Call can carry, nothing over 128 KiB
// (the catalogue itself sends the megabyte cases, once each).
func loadHostile(exp vurb.Exposition) []hostileCase {
	var out []hostileCase
	for _, tc := range hostileCases() {
		if tc.exp == exp && tc.skip == "" && tc.inProcess == "" && !tc.absent && len(tc.args) <= 128<<10 && len(tc.tool) <= 128 {
			out = append(out, tc)
		}
	}
	return out
}

// check returns what is wrong with an answer, or "".
func (c loadCall) check(res *mcp.CallToolResult, err error) (problem string, transport, late bool) {
	if c.kind == protocolError {
		var rpcErr *jsonrpc.Error
		switch {
		case errors.As(err, &rpcErr) && rpcErr.Message == c.want:
			return "", false, false
		case errors.As(err, &rpcErr):
			return fmt.Sprintf("%s: protocol error %q, want %q", c.name, rpcErr.Message, c.want), false, false
		case err != nil:
			return fmt.Sprintf("%s: %v", c.name, err), true, false
		}
		return fmt.Sprintf("%s: a result, want protocol error %q", c.name, c.want), false, false
	}
	if err != nil {
		var rpcErr *jsonrpc.Error
		return fmt.Sprintf("%s %.100s: %v", c.name, c.args, err), !errors.As(err, &rpcErr), false
	}
	got := text(res)
	switch {
	case c.late != "" && !res.IsError && got == c.late:
		return "", false, true
	case res.IsError != (c.kind == toolError):
		return fmt.Sprintf("%s %.100s: isError %v: %.200q", c.name, c.args, res.IsError, got), false, false
	case c.match != nil && !c.match.MatchString(got):
		return fmt.Sprintf("%s: got %.200q, want %s", c.name, got, c.match), false, false
	case c.match == nil && got != c.want:
		return fmt.Sprintf("%s %.100s: got %.200q, want %.200q", c.name, c.args, got, c.want), false, false
	}
	return "", false, false
}

// heapAfterGC is the live heap.
func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func TestLoadOverStreamableHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: skipped with -short")
	}
	var deafRunning atomic.Int64
	mux := http.NewServeMux()
	mux.Handle("/flat", loadApp(vurb.Flat, &deafRunning).HTTPHandler())
	mux.Handle("/grouped", loadApp(vurb.Grouped, &deafRunning).HTTPHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	httpClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * loadClients}}
	defer httpClient.CloseIdleConnections()

	hostile := [2][]hostileCase{vurb.Flat: loadHostile(vurb.Flat), vurb.Grouped: loadHostile(vurb.Grouped)}
	perClient := loadCalls / loadClients
	plans := make([][]loadCall, loadClients)
	sessions := make([]*mcp.ClientSession, loadClients)
	ctx := context.Background()
	for i := range loadClients {
		exp := vurb.Exposition(i % 2)
		plans[i] = loadPlan(exp, i, perClient, hostile[exp])
		client := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("load-%d", i), Version: "1.0.0"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/" + exp.String(), HTTPClient: httpClient},
			&mcp.ClientSessionOptions{ProtocolVersion: clientProtocol})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		sessions[i] = cs
		name, args := wireCall(exp, "hostile", "ping", "{}")
		if res, err := callRaw(t, cs, name, args); err != nil || text(res) != "pong" {
			t.Fatalf("warm-up: %v", err)
		}
	}
	hostile = [2][]hostileCase{} // the plans hold what they need
	before := heapAfterGC()

	var answered, transportErrs, wrong, late atomic.Int64
	var mu sync.Mutex
	var problems []string
	start := time.Now()
	var wg sync.WaitGroup
	for i := range loadClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, c := range plans[i] {
				res, err := sessions[i].CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: json.RawMessage(c.args)})
				problem, transport, wasLate := c.check(res, err)
				if wasLate {
					late.Add(1)
				}
				switch {
				case transport:
					transportErrs.Add(1)
				case problem != "":
					answered.Add(1)
					wrong.Add(1)
				default:
					answered.Add(1)
				}
				if problem != "" {
					mu.Lock()
					if len(problems) < 20 {
						problems = append(problems, problem)
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)

	// Every session still serves.
	for i, cs := range sessions {
		name, args := wireCall(vurb.Exposition(i%2), "hostile", "ping", "{}")
		if res, err := callRaw(t, cs, name, args); err != nil || text(res) != "pong" {
			t.Errorf("client %d no longer served: %v", i, err)
		}
	}
	waitFor(t, func() bool { return deafRunning.Load() == 0 }) // the late handlers have ended
	after := heapAfterGC()
	runtime.KeepAlive(plans)

	total := int64(perClient * loadClients)
	t.Logf("%d calls from %d clients in %s (%.0f calls/s); heap before %.1f MiB, after %.1f MiB",
		total, loadClients, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), float64(before)/(1<<20), float64(after)/(1<<20))
	if n := late.Load(); n > 0 {
		t.Logf("BUG (TestResultAfterTheDeadlineIsDropped): %d calls past their deadline got the handler's late result instead of the timeout", n)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if n := transportErrs.Load(); n != 0 {
		t.Errorf("%d transport errors, want none", n)
	}
	if n := answered.Load(); n != total {
		t.Errorf("%d of %d calls answered", n, total)
	}
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d calls answered wrongly", n)
	}
	if after > 2*before {
		t.Errorf("the heap grew from %d to %d bytes: more than 2x", before, after)
	}
}
