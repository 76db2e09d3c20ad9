// Package fault is what a client reads when something the edge ran for
// it failed: a panic (Panicked, and Contain, the middleware that recovers
// one in any handler of a go-sdk server) or a prompt's or resource's
// error (HandlerError) is an internal error whose reference joins it to
// the one log entry that holds the details. Every path that runs a
// handler answers through it, so the reference a client sees has one
// form, the engine's (Runtime.NewRef).
package fault
