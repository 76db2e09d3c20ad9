package engine

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Step is the move a gated call makes, read by its handler through
// package workflow.
type Step struct {
	Machine string
	ID      string
	// From is the state the instance was in when the call began; To the
	// state it is in once the call succeeds (From when it fires no event).
	From, To string
	// Handle is the instance's handle; "" for an instance keyed by
	// session.
	Handle string

	owner   string // whose share of the store the instance counts in
	claim   string
	starts  bool
	expires time.Time

	mu      sync.Mutex
	data    map[string]json.RawMessage // as the instance holds it
	set     map[string]json.RawMessage // what the handler attached
	settled bool                       // the call is over: Set writes nothing more
}

// The errors of Step.Set.
var (
	// ErrStepReadOnly: a call that fires no event attaches no data.
	ErrStepReadOnly = errors.New("workflow: only a call that starts or moves a workflow instance (Starts, Fires) attaches data to it; this one reads it")
	// ErrStepSettled: the call is over, and what it attached was kept or
	// dropped with it.
	ErrStepSettled = errors.New("workflow: the call is over; data is attached while its handler runs")
)

// Value returns the data attached under key, the handler's own first.
func (s *Step) Value(key string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.set[key]; ok {
		return v, true
	}
	v, ok := s.data[key]
	return v, ok
}

// Set attaches v under key, kept when the call succeeds.
func (s *Step) Set(key string, v json.RawMessage) error {
	if !s.starts && s.claim == "" {
		return ErrStepReadOnly
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.settled {
		return ErrStepSettled
	}
	if s.set == nil {
		s.set = map[string]json.RawMessage{}
	}
	s.set[key] = v
	return nil
}

// settle ends what the handler may attach and returns it.
func (s *Step) settle() map[string]json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settled = true
	return maps.Clone(s.set)
}

// StepFrom returns the workflow step of the call ctx belongs to, or nil.
func StepFrom(ctx context.Context) *Step {
	if c := CallFrom(ctx); c != nil {
		return c.step
	}
	return nil
}

// MetaWorkflow is the _meta key under which a gated call's result, and a
// refusal of the gate, say where the instance is: {"workflow", "state"}
// ("state" absent when the instance is unknown), and on a refusal
// "allowed", how the actions the caller may call in that state are
// called. A client or a test reads it rather than the text.
const MetaWorkflow = "vurb/workflow"

// flowMeta is the _meta of a result of machine's instance in state.
func flowMeta(machine, state string, allowed []string) mcp.Meta {
	w := map[string]any{"workflow": machine}
	if state != "" {
		w["state"] = state
	}
	if allowed != nil {
		w["allowed"] = allowed
	}
	return mcp.Meta{MetaWorkflow: w}
}

// withFlowMeta returns res, a gated call's success, saying where its
// instance is now, without touching the handler's own value.
func withFlowMeta(res *mcp.CallToolResult, s *Step) *mcp.CallToolResult {
	var out mcp.CallToolResult
	if res != nil {
		out = *res
	} else {
		out.Content = []mcp.Content{}
	}
	meta := flowMeta(s.Machine, s.To, nil)
	for k, v := range out.Meta {
		if k != MetaWorkflow {
			meta[k] = v
		}
	}
	out.Meta = meta
	return &out
}
