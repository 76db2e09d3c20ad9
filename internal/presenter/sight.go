package presenter

import "github.com/vurb-go/vurb/internal/engine"

// A presenter's suggestions name only actions the caller is shown. Where
// a served or in-process call picks the caller's view of its route, the
// views are set as the call's engine.Sight; an app whose callers all see
// the same tools has no views, and every action of the plan is shown. A
// server that filters tools by tag gets views when the app's presenters
// suggest, so that a suggestion never names an action the server does not
// serve.

// Sees reports whether list, the wire tools a caller lists, shows the
// action key through the wire tool wire.
func Sees(list map[string]engine.Route, wire, key string) bool {
	r := list[wire]
	if r == nil {
		return false
	}
	for _, ep := range r.Endpoints() {
		if ep.Key() == key {
			return true
		}
	}
	return false
}
