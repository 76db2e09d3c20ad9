package lane

import "github.com/vurb-go/vurb/internal/engine"

// A Viewer is the app's per-caller views (the edge's Views), which the
// lane meets without importing the edge: the route a caller reaches by
// name (own when every caller sees the same tools), nil when the caller
// may not see it. It also marks o with what the caller's lists leave
// out, for the errors it may read.
type Viewer interface {
	Seen(name string, own engine.Route, o *engine.Origin) engine.Route
}
