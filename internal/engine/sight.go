package engine

// Sight is what a caller is shown of the plan: the serving layer's views
// (tag filters, visibility classes, scopes) as a question a result can
// ask. It is set on an Origin where the caller's view of a route is
// chosen, and read only by results that name other actions.
type Sight interface {
	// Sees reports whether the caller of o is shown the action key
	// ("billing.pay"), which it would call through the wire tool wire.
	Sees(o *Origin, wire, key string) bool
}
