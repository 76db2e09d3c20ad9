package tasks

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
)

// The tasks extension's methods: tasks/get reads a task, tasks/update
// delivers the client's answers to what it waits on, tasks/cancel cancels
// it. (tasks/result and tasks/list, of the experimental tasks of revision
// 2025-11-25, are gone: the go-sdk refuses them as unknown methods, for
// any id.) What a client reads when they fail is in errors.go.

// task answers tasks/get, tasks/update and tasks/cancel.
func (f *TaskFront) task(w http.ResponseWriter, r *http.Request, req *taskRequest) {
	// Routing headers first, as the go-sdk checks them before anything:
	// Mcp-Name carries the task id.
	id, ok := wire.PlainString(req.taskID)
	switch name := r.Header.Get("Mcp-Name"); {
	case name == "":
		f.enc.HeaderMismatch(w, req.to, fmt.Sprintf("missing required Mcp-Name header for method %q", req.method))
		return
	case ok && name != id:
		f.enc.HeaderMismatch(w, req.to, fmt.Sprintf("header mismatch: Mcp-Name header value '%s' does not match body value '%s'",
			engine.Truncate(name, 128), engine.Truncate(id, 128)))
		return
	}
	if !f.declaresTasks(req) {
		f.enc.WriteError(w, req.to, missingTasksCapability(req.method))
		return
	}
	if !ok || id == "" {
		f.enc.WriteError(w, req.to, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: req.method + ": taskId must be a non-empty string"})
		return
	}
	data, err := f.method(r, req, id)
	if errors.Is(err, store.ErrTaskNotFound) && f.mayRunSomewhere(r, id) {
		data, err = f.method(r, req, id)
		if errors.Is(err, store.ErrTaskNotFound) && f.s.health.Recovering(r.Context()) {
			// Not lost, maybe: the replica that runs it has not saved it
			// again yet. Unknown is not absent.
			err = storeUnavailable()
		}
	}
	if err != nil {
		f.enc.WriteError(w, req.to, f.s.storeError(req.method, id, owner(r), err))
		return
	}
	f.enc.Write(w, req.to, data)
}

// method runs the tasks method req names on the task id.
func (f *TaskFront) method(r *http.Request, req *taskRequest, id string) ([]byte, error) {
	switch req.method {
	case "tasks/get":
		return f.get(r, id)
	case "tasks/update":
		return f.update(r, id, req.answers)
	}
	return f.cancel(r, id)
}

// mayRunSomewhere is asked of a task the store does not hold although
// its id, issued to this caller, has not expired: the store may have
// restarted empty while a replica runs the task. It has the replica that
// runs it, this one or another (asked on the bus, at most so many a
// second), save its record again, and reports whether the method should
// look again.
func (f *TaskFront) mayRunSomewhere(r *http.Request, id string) bool {
	expires, issued := taskIDExpiry(f.s.sealer, id, owner(r))
	if !issued || !f.s.now().Before(expires) {
		return false
	}
	if f.s.running.Restore(id, nil) == nil {
		return true
	}
	return f.hub != nil && f.hub.AskTask(r.Context(), id)
}

// get reads the task. Its errors are told by storeError.
func (f *TaskFront) get(r *http.Request, id string) ([]byte, error) {
	t, err := f.s.store.Get(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if t.Owner != owner(r) {
		return nil, errNotYours
	}
	t = f.s.expireLease(r.Context(), t)
	data, err := detailedTask(t, f.enc.ServerMeta)
	if err != nil { // a record the store returned does not encode
		return nil, fmt.Errorf("encoding the task read: %w", err)
	}
	return data, nil
}

// update delivers the client's answers. Answers to requests the task does
// not wait on are ignored; once none is outstanding, the call runs again.
// Its errors are told by storeError.
func (f *TaskFront) update(r *http.Request, id string, raw json.RawMessage) ([]byte, error) {
	var responses map[string]json.RawMessage
	if err := json.Unmarshal(raw, &responses); err != nil || responses == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tasks/update: inputResponses must be an object"}
	}
	who := owner(r)
	resumed := false
	t, err := f.s.store.Update(r.Context(), id, func(t *store.Task) error {
		resumed = false
		if t.Owner != who {
			return errNotYours
		}
		if t.Status != store.TaskInputRequired {
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
			t.Status, t.InputRequests, t.StatusMessage, resumed = store.TaskWorking, nil, "", true
		}
		t.UpdatedAt = f.s.now().UTC()
		return nil
	})
	switch {
	case errors.Is(err, errTaskUnchanged):
	case err != nil:
		return nil, err
	case resumed:
		f.s.resume(r.Context(), t)
	}
	return ackResult(f.enc.ServerMeta), nil
}

// cancel marks the task cancelled and cancels its handler's context. A
// terminal task is left as it is; the answer is the same. Its errors are
// told by storeError.
func (f *TaskFront) cancel(r *http.Request, id string) ([]byte, error) {
	who := owner(r)
	_, err := f.s.store.Update(r.Context(), id, func(t *store.Task) error {
		if t.Owner != who {
			return errNotYours
		}
		if t.Status.Terminal() {
			return errTaskUnchanged
		}
		t.Status, t.StatusMessage, t.InputRequests = store.TaskCancelled, "cancelled by the client", nil
		t.UpdatedAt = f.s.now().UTC()
		return nil
	})
	if err != nil && !errors.Is(err, errTaskUnchanged) {
		return nil, err
	}
	f.s.interrupt(id)
	if f.hub != nil { // the task may run on another replica
		f.hub.CancelTask(r.Context(), id)
	}
	return ackResult(f.enc.ServerMeta), nil
}
