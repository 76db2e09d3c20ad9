package edge

import (
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/vurb-go/vurb/internal/engine"
)

// What a client reads when the tasks methods cannot do what it asks, in
// one place (issue #43). A task that is not the caller's reads exactly as
// one never issued: same code, same message, on every method. Only its
// owner may learn that it expired or was lost (the id says so to the
// owner alone: see tasks_id.go).

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

// errNotYours is what a tasks method's update of a record returns for a
// task of another user: it is told as notFound, whatever the id says.
var errNotYours = errors.New("vurb: the task is another user's")

// storeError is what the caller who, asking method about task id, reads
// of the store's error (or of the method's own, a JSON-RPC error from
// inside an update): a task not the caller's reads as never issued; one
// the store no longer holds reads, to its owner alone, as expired or
// lost, as the id says (tasks_id.go).
func (s *taskServer) storeError(method, id, who string, err error) *jsonrpc.Error {
	var own *jsonrpc.Error
	switch {
	case errors.Is(err, errNotYours):
		return notFound(id)
	case errors.Is(err, ErrTaskNotFound):
		return s.goneError(id, who)
	case errors.As(err, &own): // the method's own
		return own
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
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
