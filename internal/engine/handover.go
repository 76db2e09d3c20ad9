package engine

import "errors"

// ErrHandover is what a detached call (Origin.Detached) returns when its
// handler reached for the handshake-era session it was answered away from:
// the caller, which has written nothing yet, hands the request to the
// go-sdk's session instead, which runs the call again. A handler that
// asks for input already runs again with the answers (see Round), so it
// is written for it.
var ErrHandover = errors.New("vurb: the call needs its go-sdk session")

// handover is the panic that unwinds a detached handler reaching for its
// session; run recovers it as ErrHandover, not as a panic.
type handover struct{}

// Handover stops a detached call so that it is handed to the go-sdk (see
// ErrHandover); the root's session helpers call it.
func Handover() { panic(handover{}) }
