package tasks

import (
	"context"
	"time"

	"github.com/vurb-go/vurb/internal/engine"
)

// What the tasks need of the rest of the edge, as interfaces the edge's
// own types meet: the tasks never import the edge, which serves them.

// A viewer is the app's per-caller views (the edge's Views): the route a
// caller reaches by name, nil when the caller may not see it.
type viewer interface {
	Seen(name string, own engine.Route, o *engine.Origin) engine.Route
}

// A storeWatch says whether a shared store has just come back, empty:
// a task it does not hold may not be lost, only not saved again yet.
type storeWatch interface {
	Recovering(ctx context.Context) bool
}

// replicas is the bus between the replicas of an app, nil with one
// process.
type replicas interface {
	// AskTask reports whether another replica runs the task id.
	AskTask(ctx context.Context, id string) bool
	// CancelTask tells every replica that the task id was cancelled.
	CancelTask(ctx context.Context, id string)
}

// restoreTimeout bounds the store write that saves a lost task again,
// as the edge bounds its probe of the store.
const restoreTimeout = 2 * time.Second

// seen is the route a caller reaches by name, through the views when the
// app has them.
func (s *taskServer) seen(name string, own engine.Route, o *engine.Origin) engine.Route {
	if s.views == nil {
		return own
	}
	return s.views.Seen(name, own, o)
}
