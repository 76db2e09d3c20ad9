package edge

import (
	"context"
	"errors"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// weakSet holds values without keeping them alive: the servers an app
// made, for notifications every subscriber must receive (a stateless
// deployment may make one per request, and the app must not keep them
// all), and the fronts a replica's bus delivers to.
type weakSet[T any] struct {
	mu     sync.Mutex
	values map[weak.Pointer[T]]struct{}
}

// add records v, and drops the values the garbage collector has taken
// since.
func (s *weakSet[T]) add(v *T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values == nil {
		s.values = map[weak.Pointer[T]]struct{}{}
	}
	for w := range s.values {
		if w.Value() == nil {
			delete(s.values, w)
		}
	}
	s.values[weak.Make(v)] = struct{}{}
}

func (s *weakSet[T]) remove(v *T) {
	s.mu.Lock()
	delete(s.values, weak.Make(v))
	s.mu.Unlock()
}

// live returns the values still in use.
func (s *weakSet[T]) live() []*T {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*T, 0, len(s.values))
	for w := range s.values {
		if v := w.Value(); v != nil {
			out = append(out, v)
		}
	}
	return out
}

// NotifyResourceUpdated is vurb.NotifyResourceUpdated; see its documentation there.
func (a *Site) NotifyResourceUpdated(ctx context.Context, uri string) error {
	if h := a.replicaHub(); h != nil {
		h.Resource(ctx, uri)
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
