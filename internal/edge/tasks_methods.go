package edge

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// The tasks extension's methods: tasks/get reads a task, tasks/update
// delivers the client's answers to what it waits on, tasks/cancel cancels
// it. (tasks/result and tasks/list, of the experimental tasks of revision
// 2025-11-25, are gone: the go-sdk refuses them as unknown methods.)

// task answers tasks/get, tasks/update and tasks/cancel.
func (f *taskFront) task(w http.ResponseWriter, r *http.Request, req *taskRequest) {
	// Routing headers first, as the go-sdk checks them before anything:
	// Mcp-Name carries the task id.
	id, ok := plainString(req.taskID)
	switch name := r.Header.Get("Mcp-Name"); {
	case name == "":
		headerMismatch(w, req.lr, fmt.Sprintf("missing required Mcp-Name header for method %q", req.method))
		return
	case ok && name != id:
		headerMismatch(w, req.lr, fmt.Sprintf("header mismatch: Mcp-Name header value '%s' does not match body value '%s'",
			engine.Truncate(name, 128), engine.Truncate(id, 128)))
		return
	}
	if !f.declaresTasks(req) {
		f.enc.writeError(w, req.lr, missingTasksCapability(req.method))
		return
	}
	if !ok || id == "" {
		f.enc.writeError(w, req.lr, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: req.method + ": taskId must be a non-empty string"})
		return
	}
	var data []byte
	var err error
	switch req.method {
	case "tasks/get":
		data, err = f.get(r, id)
	case "tasks/update":
		data, err = f.update(r, id, req.answers)
	case "tasks/cancel":
		data, err = f.cancel(r, id)
	}
	if err != nil {
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) {
			rpcErr = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		f.enc.writeError(w, req.lr, rpcErr)
		return
	}
	f.enc.write(w, req.lr, data)
}

// notFound is the error for a task the caller cannot see: unknown,
// expired, or another user's.
func notFound(id string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("Failed to retrieve task: task %q not found (unknown, or expired)", engine.Truncate(id, 64))}
}

// storeError reads a store's error for the client. A task the store no
// longer holds is told apart by its id (tasks_id.go): expired, lost when
// its server stopped, or never issued.
func (s *taskServer) storeError(id string, err error) error {
	if !errors.Is(err, ErrTaskNotFound) {
		return err
	}
	expires, issued := taskIDExpiry(s.sealer, id)
	switch {
	case !issued:
		return notFound(id)
	case !s.now().Before(expires):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("Failed to retrieve task: task %q has expired (its TTL is over) and is no longer kept; call the tool again if you still need its result", id)}
	default:
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("Failed to retrieve task: task %q was lost: the server running it stopped (a restart or a crash) before it finished, and kept no record of it; call the tool again", id)}
	}
}

func (f *taskFront) get(r *http.Request, id string) ([]byte, error) {
	t, err := f.s.store.Get(r.Context(), id)
	if err != nil {
		return nil, f.s.storeError(id, err)
	}
	if t.Owner != owner(r) {
		return nil, notFound(id)
	}
	return detailedTask(t, f.enc.serverMeta)
}

// update delivers the client's answers. Answers to requests the task does
// not wait on are ignored; once none is outstanding, the call runs again.
func (f *taskFront) update(r *http.Request, id string, raw json.RawMessage) ([]byte, error) {
	var responses map[string]json.RawMessage
	if err := json.Unmarshal(raw, &responses); err != nil || responses == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tasks/update: inputResponses must be an object"}
	}
	who := owner(r)
	resumed := false
	t, err := f.s.store.Update(r.Context(), id, func(t *TaskRecord) error {
		resumed = false
		if t.Owner != who {
			return ErrTaskNotFound
		}
		if t.Status != TaskInputRequired {
			return errTaskUnchanged
		}
		for key, answer := range responses {
			if _, pending := t.InputRequests[key]; !pending {
				continue
			}
			if _, err := decodeAnswer(answer); err != nil {
				return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
					Message: fmt.Sprintf("tasks/update: inputResponses[%q] is not an input response: %v", engine.Truncate(key, 64), err)}
			}
			if t.Answers == nil {
				t.Answers = map[string]json.RawMessage{}
			}
			t.Answers[key] = answer
			delete(t.InputRequests, key)
		}
		if len(t.InputRequests) == 0 {
			t.Status, t.InputRequests, t.StatusMessage, resumed = TaskWorking, nil, "", true
		}
		t.UpdatedAt = f.s.now().UTC()
		return nil
	})
	switch {
	case errors.Is(err, errTaskUnchanged):
	case err != nil:
		return nil, f.s.storeError(id, err)
	case resumed:
		f.s.resume(r.Context(), t)
	}
	return ackResult(f.enc.serverMeta), nil
}

// cancel marks the task cancelled and cancels its handler's context. A
// terminal task is left as it is; the answer is the same.
func (f *taskFront) cancel(r *http.Request, id string) ([]byte, error) {
	who := owner(r)
	_, err := f.s.store.Update(r.Context(), id, func(t *TaskRecord) error {
		if t.Owner != who {
			return ErrTaskNotFound
		}
		if t.Status.Terminal() {
			return errTaskUnchanged
		}
		t.Status, t.StatusMessage, t.InputRequests = TaskCancelled, "cancelled by the client", nil
		t.UpdatedAt = f.s.now().UTC()
		return nil
	})
	if err != nil && !errors.Is(err, errTaskUnchanged) {
		return nil, f.s.storeError(id, err)
	}
	f.s.interrupt(id)
	if f.hub != nil { // the task may run on another replica
		f.hub.publishAndWait(r.Context(), busMessage{Kind: busTaskCancelled, Session: id})
	}
	return ackResult(f.enc.serverMeta), nil
}

// headerMismatch answers as the go-sdk does when routing headers disagree
// with the body: -32020, HTTP 400, a bare JSON body.
func headerMismatch(w http.ResponseWriter, lr laneRequest, message string) {
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: lr.id, Error: &jsonrpc.Error{Code: mcp.CodeHeaderMismatch, Message: message}})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(data)
}
