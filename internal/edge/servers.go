package edge

import (
	"context"
	"errors"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverSet is the servers an app made, for notifications every subscriber
// must receive. Weak: a stateless deployment may make one per request, and
// the app must not keep them all alive.
type serverSet struct {
	mu      sync.Mutex
	servers map[weak.Pointer[mcp.Server]]struct{}
}

// add records server, and drops the servers the garbage collector has
// taken since.
func (s *serverSet) add(server *mcp.Server) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.servers == nil {
		s.servers = map[weak.Pointer[mcp.Server]]struct{}{}
	}
	for w := range s.servers {
		if w.Value() == nil {
			delete(s.servers, w)
		}
	}
	s.servers[weak.Make(server)] = struct{}{}
}

func (s *serverSet) remove(server *mcp.Server) {
	s.mu.Lock()
	delete(s.servers, weak.Make(server))
	s.mu.Unlock()
}

// live returns the servers still in use.
func (s *serverSet) live() []*mcp.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*mcp.Server, 0, len(s.servers))
	for w := range s.servers {
		if server := w.Value(); server != nil {
			out = append(out, server)
		}
	}
	return out
}

// NotifyResourceUpdated is vurb.NotifyResourceUpdated; see its documentation there.
func (a *Site) NotifyResourceUpdated(ctx context.Context, uri string) error {
	if h := a.replicaHub(); h != nil {
		h.publish(ctx, busMessage{Kind: busResource, URI: uri})
	}
	return a.notifyLocal(ctx, uri)
}

// notifyLocal tells the subscribers of this process's servers that uri
// was updated.
func (a *Site) notifyLocal(ctx context.Context, uri string) error {
	var errs []error
	for _, s := range a.servers.live() {
		if err := ctx.Err(); err != nil {
			return errors.Join(append(errs, err)...)
		}
		errs = append(errs, s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}))
	}
	return errors.Join(errs...)
}
