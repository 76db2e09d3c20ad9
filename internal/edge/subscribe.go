package edge

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource subscriptions are the go-sdk's: it keeps, per URI, the sessions
// subscribed. A template matches endless URIs, so a client could subscribe
// to as many as it likes, and the go-sdk forgets a closed session but not
// the URIs it subscribed to: 200 distinct 50 KB URIs from each of ten
// sessions were 110 MB kept after they closed. vurb bounds what a session
// may hold and reclaims it with the session.

// Bounds of resource subscriptions.
const (
	// DefaultMaxSubscriptions is how many resources one session may be
	// subscribed to at once.
	DefaultMaxSubscriptions = 100
	// maxSubscribedURI bounds the length of a URI one may subscribe to.
	maxSubscribedURI = 2048
)

// subscriptions are the resource subscriptions of one server's sessions.
type subscriptions struct {
	app    *Site
	server *mcp.Server // set once the server exists
	max    int
	logger *slog.Logger

	mu        sync.Mutex
	bySession map[*mcp.ServerSession]map[string]bool
}

func newSubscriptions(a *Site) *subscriptions {
	return &subscriptions{app: a, max: DefaultMaxSubscriptions, logger: a.Logger,
		bySession: map[*mcp.ServerSession]map[string]bool{}}
}

// subscribe accepts a subscription to a resource the app declares, within
// the session's bound; the first one of a session arranges for its URIs to
// be reclaimed when it ends.
func (s *subscriptions) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if len(uri) > maxSubscribedURI {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: "the URI is " + strconv.Itoa(len(uri)) + " bytes; a subscription's is at most " + strconv.Itoa(maxSubscribedURI)}
	}
	if s.app.resourceFor(uri) == nil {
		return mcp.ResourceNotFoundError(uri)
	}
	ss := req.Session
	if ss == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	uris := s.bySession[ss]
	if uris == nil {
		uris = map[string]bool{}
		s.bySession[ss] = uris
		go s.reclaimAfter(ss)
	}
	if !uris[uri] && len(uris) >= s.max {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf("this session is subscribed to %d resources, its limit; unsubscribe from one first", len(uris))}
	}
	uris[uri] = true
	return nil
}

// unsubscribe forgets one subscription of the session.
func (s *subscriptions) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if uris := s.bySession[req.Session]; uris != nil {
		delete(uris, req.Params.URI)
	}
	return nil
}

// reclaimAfter waits for ss to end, then makes the go-sdk drop the URIs it
// alone was subscribed to. The go-sdk drops a URI when an unsubscribe
// leaves it without subscribers, and has no other way to: so a session of
// vurb's own, in memory, unsubscribes from each (the go-sdk then drops the
// URI unless another session is still subscribed to it).
func (s *subscriptions) reclaimAfter(ss *mcp.ServerSession) {
	defer func() {
		if p := recover(); p != nil {
			s.logger.Error("vurb: reclaiming a session's subscriptions panicked", "panic", fmt.Sprint(p))
		}
	}()
	_ = ss.Wait()
	s.mu.Lock()
	uris := s.bySession[ss]
	delete(s.bySession, ss)
	s.mu.Unlock()
	if len(uris) == 0 || s.server == nil {
		return
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	own, err := s.server.Connect(ctx, st, nil)
	if err != nil {
		return
	}
	defer own.Close()
	// A handshake-era session: a newer one's Unsubscribe sends nothing.
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "vurb-reclaim", Version: "1"}, nil).Connect(ctx, ct,
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return
	}
	defer cs.Close()
	for uri := range uris {
		_ = cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
	}
}
