package engine

// Sight is what a caller is shown of the plan: the serving layer's views
// (tag filters, visibility classes, scopes) as a question a result can
// ask. It returns the test of whether the caller of o is shown the action
// key ("billing.pay"), which it would call through the wire tool wire:
// the caller's view is found once, and the test asked of every action a
// result names (a search asks it of many). It is set on an Origin where
// the caller's view of a route is chosen, and read only by results that
// name other actions.
//
// It is a func, not an interface: Origin lives in every call's context,
// and eight bytes more put that context past a malloc size class
// (bench/README.md).
type Sight func(o *Origin) func(wire, key string) bool
