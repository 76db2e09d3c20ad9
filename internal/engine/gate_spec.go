package engine

import "time"

// FlowMachine is a workflow's machine, lowered: the definition layer
// copies it once, so that the plan never reads the app's Machine again.
type FlowMachine struct {
	Name    string
	Initial string
	// Next maps a state and an event ("state\x00event") to the state the
	// event moves an instance to.
	Next   map[string]string
	Finals []string
	// BySession keys instances by the caller's session (one per session,
	// started at the first call) instead of by handle.
	BySession bool
	// TTL is how long an instance lives from its start.
	TTL time.Duration
}

// next returns the state event moves an instance in state to.
func (m *FlowMachine) next(state, event string) (string, bool) {
	to, ok := m.Next[state+"\x00"+event]
	return to, ok
}

// FlowSpec binds an action to a workflow, lowered.
type FlowSpec struct {
	Machine *FlowMachine // shared by every action bound to it
	// States are the states the action is allowed in; none for a
	// starter, which makes a new instance.
	States []string
	// Event is fired when the handler succeeds; "" for none.
	Event  string
	Starts bool
	// Handle reads the instance's handle from the decoded input, and
	// HandleField names the input's property holding it; nil for a
	// starter and for a machine keyed by session.
	Handle      func(in any) string
	HandleField string
}

// moves maps each state the action is allowed in to the state its event
// moves an instance to: what a claim reserves.
func (f *FlowSpec) moves() map[string]string {
	out := make(map[string]string, len(f.States))
	for _, s := range f.States {
		if to, ok := f.Machine.next(s, f.Event); ok {
			out[s] = to
		}
	}
	return out
}
