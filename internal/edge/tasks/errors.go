package tasks

import (
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
)

// What a client reads when the tasks methods cannot do what it asks, in
// one place (issue #43). Two rules hold them:
//
//   - A task that is not the caller's reads exactly as one never issued:
//     same code, same message, on every method. Only its owner may learn
//     that it expired or was lost (the id says so to the owner alone:
//     see id.go).
//   - What a store says when it fails (a host, a port, a timeout) is for
//     the server's log. The client reads storeUnavailableText, a JSON-RPC
//     internal error in an ordinary answer, as every other JSON-RPC error
//     of the front is, not an HTTP 503: the failure is the method's, on a
//     transport that answers, and a balancer retrying it elsewhere would
//     meet the same shared store. Only store.ErrTasksFull is told as the
//     store words it, as vurb's stores word it for the caller: how much of
//     its share it holds.

// storeUnavailableText is what a client reads of a store that fails.
const storeUnavailableText = "the task store is unavailable; retry later"

// storeUnavailable is the error a client reads of a store that fails.
func storeUnavailable() *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: storeUnavailableText}
}

// notFound is the error for a task the caller cannot see: never issued,
// or another user's, or (to a caller that cannot tell) expired or lost.
func notFound(id string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("Failed to retrieve task: task %q not found (unknown, or expired)", engine.Truncate(id, 64))}
}

// taskExpired is, to its owner, the error for a task past its TTL.
func taskExpired(id string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("Failed to retrieve task: task %q has expired (its TTL is over) and is no longer kept; call the tool again if you still need its result", id)}
}

// taskLost is, to its owner, the error for a task the store lost before
// its TTL: its server stopped.
func taskLost(id string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("Failed to retrieve task: task %q was lost: the server running it stopped (a restart or a crash) before it finished, and kept no record of it; call the tool again", id)}
}

// storeFull is the error of a store that holds all it may (its text is
// the store's: see above).
func storeFull(err error) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "cannot create the task: " + err.Error()}
}

// errNotYours is what a tasks method's update of a record returns for a
// task of another user: it is told as notFound, whatever the id says.
var errNotYours = errors.New("vurb: the task is another user's")

// storeFailure is a store's error as vurb hands it on, to a client or to
// a handler (StartTask, SetTaskStatus), once logged: it reads as
// storeUnavailableText, and to errors.As as that JSON-RPC internal error,
// so whoever passes it on tells nothing the store said; Unwrap gives the
// store's error to errors.Is and errors.As (a deadline, a network error).
type storeFailure struct{ err error }

func (e *storeFailure) Error() string { return storeUnavailableText }
func (e *storeFailure) Unwrap() error { return e.err }

// As makes a storeFailure a *jsonrpc.Error to errors.As: the engine, the
// lane and a failed task's record all answer a JSON-RPC error as it is.
func (e *storeFailure) As(target any) bool {
	p, ok := target.(**jsonrpc.Error)
	if ok {
		*p = storeUnavailable()
	}
	return ok
}

// storeFailed logs err, which the store returned doing op on task id
// ("" before there is one), with the app's logger, and returns what may
// be told of it. An error logged already is returned as it is.
func (s *taskServer) storeFailed(op, id string, err error) error {
	var f *storeFailure
	if errors.As(err, &f) {
		return f
	}
	s.logger.Error("vurb: the task store failed; the client was told it is unavailable", "op", op, "task", id, "err", err.Error())
	return &storeFailure{err}
}

// storeError is what the caller who, asking method about task id, reads
// of the store's error (or of the method's own, a JSON-RPC error from
// inside an update): a task not the caller's reads as never issued; one
// the store no longer holds reads, to its owner alone, as expired or
// lost, as the id says (id.go); a failing store is logged and reads
// as unavailable.
func (s *taskServer) storeError(method, id, who string, err error) *jsonrpc.Error {
	var own *jsonrpc.Error
	switch {
	case errors.Is(err, errNotYours):
		return notFound(id)
	case errors.Is(err, store.ErrTaskNotFound):
		return s.goneError(id, who)
	case errors.Is(err, store.ErrTasksFull):
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: method + ": " + err.Error()}
	case errors.As(err, &own): // the method's own, or a storeFailure's fixed text
		return own
	}
	s.storeFailed(method, id, err) // logs it
	return storeUnavailable()
}

// goneError is the error for a task the store no longer holds, as who
// may read it.
func (s *taskServer) goneError(id, who string) *jsonrpc.Error {
	expires, issued := taskIDExpiry(s.sealer, id, who)
	switch {
	case !issued:
		return notFound(id)
	case !s.now().Before(expires):
		return taskExpired(id)
	default:
		return taskLost(id)
	}
}
