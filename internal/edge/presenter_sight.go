package edge

import (
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/presenter"
)

// A presenter's suggestions name only actions the caller is shown. Where
// a served or in-process call picks the caller's view of its route
// (Views.seen), the views are set as the call's engine.Sight; an app
// whose callers all see the same tools has no views, and every action of
// the plan is shown. A server that filters tools by tag gets views when
// the app's presenters suggest (see Site.Suggests), so that a suggestion
// never names an action the server does not serve.

// Sees returns the test of whether the caller of o lists the action key,
// reached through the wire tool wire: its class's view, less the actions
// its token lacks scopes for, through the server's filters.
func (vs *Views) Sees(o *engine.Origin) func(wire, key string) bool {
	v := vs.list(o)
	return func(wire, key string) bool { return presenter.Sees(v, wire, key) }
}
