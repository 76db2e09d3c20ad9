package redisstate_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisstate"
)

// Handshake-era sessions on two replicas behind a balancer with no
// affinity: each request of one go-sdk client goes to the next replica in
// turn, and the session it opened on one is served by both: its plain
// calls from the record in Redis, its notifications on a go-sdk session
// connected from that record; once the replica that opened it is gone,
// the other serves it alone, and the client's DELETE, on either, forgets
// it for both.

// sessionReplica is one replica's handler, with its own Redis client.
func sessionReplica(t *testing.T, client *redis.Client, opts ...vurb.ServeOption) http.Handler {
	t.Helper()
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)), vurb.WithRequestStateKeys([]byte("0123456789abcdef0123456789abcdef")))
	vurb.Query(app, "docs.who", func(ctx context.Context, _ struct{}) (string, error) {
		c := vurb.CallerFrom(ctx)
		return c.SessionID + "|" + c.Client.Name, nil
	})
	return app.HTTPHandler(append([]vurb.ServeOption{vurb.WithSessionStore(redisstate.New(client).Sessions())}, opts...)...)
}

// roundRobin sends each request to the next live replica.
type roundRobin struct {
	next     atomic.Uint64
	mu       sync.Mutex
	replicas []http.Handler
	down     map[int]bool
	served   []int
}

func (b *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for {
		i := int(b.next.Add(1)-1) % len(b.replicas)
		b.mu.Lock()
		if b.down[i] {
			b.mu.Unlock()
			continue
		}
		b.served[i]++
		b.mu.Unlock()
		b.replicas[i].ServeHTTP(w, r)
		return
	}
}

func TestSessionsServedByAnyReplica(t *testing.T) {
	rs := startRedis(t)
	for _, mode := range []struct {
		name string
		opts []vurb.ServeOption
	}{{"session lane", nil}, {"go-sdk only", []vurb.ServeOption{vurb.WithFastLane(false)}}} {
		t.Run(mode.name, func(t *testing.T) { sessionsServedByAnyReplica(t, rs, mode.opts) })
	}
}

func sessionsServedByAnyReplica(t *testing.T, rs *redisServer, opts []vurb.ServeOption) {
	is := is.New(t)
	lb := &roundRobin{replicas: []http.Handler{sessionReplica(t, rs.client(t), opts...), sessionReplica(t, rs.client(t), opts...)},
		down: map[int]bool{}, served: make([]int, 2)}
	srv := httptest.NewServer(lb)
	defer srv.Close()

	client := mcp.NewClient(&mcp.Implementation{Name: "roamer", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	is.NoErr(err)
	defer cs.Close()

	text := func(name string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		is.NoErr(err)
		if res.IsError {
			t.Fatalf("%s: %s", name, res.Content[0].(*mcp.TextContent).Text)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	for range 6 { // on both replicas in turn
		is.Equal(text("docs_who", map[string]any{}), cs.ID()+"|roamer")
	}
	lb.mu.Lock()
	is.True(lb.served[0] >= 4 && lb.served[1] >= 4) // both replicas served the session
	lb.down[0] = true                               // the replica that opened it is gone
	lb.mu.Unlock()
	for range 4 {
		is.Equal(text("docs_who", map[string]any{}), cs.ID()+"|roamer")
	}
	lb.mu.Lock()
	lb.down[0] = false
	lb.mu.Unlock()
	is.NoErr(cs.Close()) // DELETE, on either replica: the record is gone for both
	_, err = redisstate.New(rs.client(t)).Sessions().Load(ctx, cs.ID())
	is.True(err != nil)
}
