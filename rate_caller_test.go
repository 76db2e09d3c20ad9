package vurb_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// peerHeader stands in, in these tests, for the address a connection
// comes from: net/http would set RemoteAddr from the socket.
const peerHeader = "X-Test-Peer"

// TestRateLimitPerCallerAnonymousIPv6ByNetwork: anonymous sessionless
// callers over IPv6 are told apart by their /64, the block one subscriber
// (one host, one VPS) is given: an address per request from it is one
// caller, not a fresh budget each time. Another /64 is another caller.
func TestRateLimitPerCallerAnonymousIPv6ByNetwork(t *testing.T) {
	t.Parallel()
	app := vurb.New()
	vurb.Query(app, "notes.search", echo).RateLimit(vurb.PerCaller(1, time.Minute))
	h := app.HTTPHandler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RemoteAddr = r.Header.Get(peerHeader)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	search := func(peer string) *mcp.CallToolResult {
		t.Helper()
		is := is.New(t)
		client := &http.Client{Transport: headerRoundTripper{peerHeader: peer}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "anon"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: client},
			&mcp.ClientSessionOptions{ProtocolVersion: vurbtest.Sessionless})
		is.NoErr(err)
		defer cs.Close()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "notes_search", Arguments: echoIn{"x"}})
		is.NoErr(err)
		return res
	}
	limited := func(res *mcp.CallToolResult) bool {
		return res.IsError && strings.Contains(texts(res)[0], "rate limit reached")
	}
	is := is.New(t)
	is.True(!limited(search("[2001:db8:0:1::1]:40000")))
	is.True(limited(search("[2001:db8:0:1::2]:40001")))           // the same /64: its budget is spent
	is.True(limited(search("[2001:db8:0:1:ffff:ffff:ffff:1]:1"))) // anywhere in it
	is.True(!limited(search("[2001:db8:0:2::1]:40000")))          // another /64: its own
	is.True(!limited(search("192.0.2.1:40000")))                  // IPv4 hosts stay apart
	is.True(!limited(search("192.0.2.2:40000")))
}

// peerRoundTripper sets peerHeader to its current peer on every request.
type peerRoundTripper struct {
	mu   sync.Mutex
	peer string
}

func (p *peerRoundTripper) set(peer string) { p.mu.Lock(); p.peer = peer; p.mu.Unlock() }

func (p *peerRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	p.mu.Lock()
	peer := p.peer
	p.mu.Unlock()
	r = r.Clone(r.Context())
	r.Header.Set(peerHeader, peer)
	return http.DefaultTransport.RoundTrip(r)
}

// TestSessionCallerIsTheAddressThatOpenedIt: on a session, handlers read
// the address of the request that opened it as Caller.RemoteAddr, as the
// Caller's doc says, and a later request from elsewhere does not change it
// (nor, so, the PerCaller bucket it spends).
func TestSessionCallerIsTheAddressThatOpenedIt(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "notes.whoami", func(ctx context.Context, _ struct{}) (string, error) {
		return vurb.CallerFrom(ctx).RemoteAddr, nil
	})
	h := app.HTTPHandler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RemoteAddr = r.Header.Get(peerHeader)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	rt := &peerRoundTripper{peer: "192.0.2.1:1000"}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "anon"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: rt}},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	is.NoErr(err)
	defer cs.Close()
	rt.set("198.51.100.7:2000")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "notes_whoami", Arguments: map[string]any{}})
	is.NoErr(err)
	is.Equal(texts(res)[0], "192.0.2.1:1000")
}
