package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/vurb-go/vurb/internal/engine"
)

// Handle names one instance of a machine to the model: a starting action
// returns it, and the actions that move the instance on take it as an
// argument. Declare it as a field of the input struct of every action
// bound to a machine (the field's tags describe it as any other's), and
// of the output struct of the action that starts one, set from
// Run.Handle:
//
//	type PayIn struct {
//		Order workflow.Handle `json:"order" required:"true" description:"the order's handle, as checkout_start returned it"`
//	}
//
// A handle is opaque to the model and to the client: the instance's id
// sealed by the app's request-state keys, bound to the caller (the
// verified subject; else the session, or the process for a stdio or
// in-process caller) and to its machine, with the instance's expiry. A
// forged, altered, truncated, expired or another caller's handle is
// refused before any store is asked.
type Handle string

// Run is a gated call's view of its workflow instance: the state the call
// found it in, where a success moves it, and the data attached to it.
// The zero Run, of a call bound to no machine, is in no state and holds
// no data.
type Run struct{ s *engine.Step }

// The errors of Run.Set.
var (
	// ErrReadOnly: only a call that starts an instance or fires an event
	// attaches data; the others read it.
	ErrReadOnly = engine.ErrStepReadOnly
	// ErrSettled: the call is over (a goroutine the handler started set
	// data after it returned), and its data was kept or dropped with it.
	ErrSettled = engine.ErrStepSettled
	// ErrNoWorkflow: the call is of an action bound to no machine.
	ErrNoWorkflow = errors.New("workflow: the call is of an action bound to no workflow")
)

// From returns the workflow run of the call ctx belongs to, and false in
// a call of an action bound to no machine (the zero Run).
func From(ctx context.Context) (Run, bool) {
	s := engine.StepFrom(ctx)
	return Run{s}, s != nil
}

// Machine returns the name of the instance's machine.
func (r Run) Machine() string {
	if r.s == nil {
		return ""
	}
	return r.s.Machine
}

// State returns the state the instance was in when the call began (the
// initial state for a call that starts one).
func (r Run) State() string {
	if r.s == nil {
		return ""
	}
	return r.s.From
}

// Next returns the state the instance is in once the call succeeds: the
// state its event moves it to, else State.
func (r Run) Next() string {
	if r.s == nil {
		return ""
	}
	return r.s.To
}

// Handle returns the instance's handle, for the model to pass back; ""
// for an instance keyed by session.
func (r Run) Handle() Handle {
	if r.s == nil {
		return ""
	}
	return Handle(r.s.Handle)
}

// Get decodes the data attached to the instance under key into v (a
// pointer, as json.Unmarshal takes), the data this call set first, and
// reports whether there was any.
func (r Run) Get(key string, v any) (bool, error) {
	if r.s == nil {
		return false, nil
	}
	raw, ok := r.s.Value(key)
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("workflow %q: data %q: %w", r.s.Machine, key, err)
	}
	return true, nil
}

// Set attaches v, encoded as JSON, to the instance under key, replacing
// what the key held: the cart's id, an approval's reviewer. It is kept
// when the call succeeds, with the move it makes, so only a call that
// starts the instance or fires an event sets data; any other gets
// ErrReadOnly.
func (r Run) Set(key string, v any) error {
	if r.s == nil {
		return ErrNoWorkflow
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("workflow %q: data %q: %w", r.s.Machine, key, err)
	}
	return r.s.Set(key, raw)
}
