package workflow

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Machine is a declared state machine: its states, the events that move
// an instance from one state to another, the state every instance starts
// in and the states it ends in. Declare it once, bind actions to it
// (vurb's ActionDef.When and ActionDef.Fires), and vurb checks the whole
// at build: a machine is a definition, and a mistake in it panics at
// Build naming what to change, as a mistake in an input struct does.
//
// A Machine is immutable once an app that binds it is built; it is safe
// for concurrent use from then on.
type Machine struct {
	name      string
	initial   string
	finals    []string
	trans     []Transition // in declaration order
	bySession bool
	ttl       time.Duration
}

// DefaultTTL is how long an instance lives from its start when the
// machine does not say (TTL).
const DefaultTTL = 24 * time.Hour

// Transition is one edge of a machine: in state From, the event Event
// moves an instance to state To.
type Transition struct {
	From, Event, To string
}

// New declares the machine called name whose instances start in state
// initial.
func New(name, initial string) *Machine {
	return &Machine{name: name, initial: initial}
}

// On declares that in state from the event moves an instance to state
// to. States and events are declared by naming them here.
func (m *Machine) On(from, event, to string) *Machine {
	m.trans = append(m.trans, Transition{From: from, Event: event, To: to})
	return m
}

// Final declares states an instance ends in: no event moves it on, and
// an instance that reaches one is done (its handle opens nothing more).
func (m *Machine) Final(states ...string) *Machine {
	m.finals = append(m.finals, states...)
	return m
}

// BySession keys the machine's instances by the caller's session instead
// of by handle: one instance per session, started in the initial state at
// the session's first call of a bound action, and no handle in any
// input. A session's list of tools then hides the actions its instance's
// state does not allow, and changes (notifications/tools/list_changed)
// as the instance moves. It serves stdio, in-process callers and
// handshake-era HTTP sessions; a request without a session (protocol
// revision 2026-07-28) is refused, so a machine that must serve every
// revision keeps the default, instances named by handles.
func (m *Machine) BySession() *Machine {
	m.bySession = true
	return m
}

// IsBySession reports whether the machine's instances are keyed by
// session (BySession).
func (m *Machine) IsBySession() bool { return m.bySession }

// TTL sets how long an instance lives from its start, DefaultTTL when
// not set: past it, its handle opens nothing and the store forgets it.
func (m *Machine) TTL(d time.Duration) *Machine {
	m.ttl = d
	return m
}

// InstanceTTL returns how long an instance lives from its start: TTL's,
// or DefaultTTL.
func (m *Machine) InstanceTTL() time.Duration {
	if m.ttl <= 0 {
		return DefaultTTL
	}
	return m.ttl
}

// Name returns the machine's name.
func (m *Machine) Name() string { return m.name }

// Initial returns the state every instance starts in.
func (m *Machine) Initial() string { return m.initial }

// Transitions returns the machine's transitions in declaration order.
func (m *Machine) Transitions() []Transition { return slices.Clone(m.trans) }

// States returns every state, the initial first, then in the order the
// declaration first names them.
func (m *Machine) States() []string {
	out := []string{m.initial}
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, t := range m.trans {
		add(t.From)
		add(t.To)
	}
	for _, s := range m.finals {
		add(s)
	}
	return out
}

// Events returns every event, in the order the declaration first names
// them.
func (m *Machine) Events() []string {
	var out []string
	for _, t := range m.trans {
		if !slices.Contains(out, t.Event) {
			out = append(out, t.Event)
		}
	}
	return out
}

// IsFinal reports whether state is one the machine ends in.
func (m *Machine) IsFinal(state string) bool { return slices.Contains(m.finals, state) }

// Next returns the state event moves an instance in state to, and false
// when event does not move it from there.
func (m *Machine) Next(state, event string) (string, bool) {
	for _, t := range m.trans {
		if t.From == state && t.Event == event {
			return t.To, true
		}
	}
	return "", false
}

// Leaving returns the events that move an instance on from state, in
// declaration order: the way on a refusal names.
func (m *Machine) Leaving(state string) []string {
	var out []string
	for _, t := range m.trans {
		if t.From == state && !slices.Contains(out, t.Event) {
			out = append(out, t.Event)
		}
	}
	return out
}

// Check returns the machine's definition errors, joined, each saying how
// to fix it; nil when it has none. A name, states and events are words of
// letters, digits, '_', '-' and '.'; every state is reachable from the
// initial one; an event moves an instance from a state to one state
// only; a final state has no way out and every other state has one.
func (m *Machine) Check() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("workflow %q: "+format, append([]any{m.name}, args...)...))
	}
	if why := checkWord(m.name); why != "" {
		bad("the name %s", why)
	}
	if why := checkWord(m.initial); why != "" {
		bad("the initial state %s", why)
	}
	if len(m.trans) == 0 {
		bad("declares no transition: add one with On(from, event, to)")
	}
	for i, t := range m.trans {
		for _, w := range [][2]string{{"state", t.From}, {"event", t.Event}, {"state", t.To}} {
			if why := checkWord(w[1]); why != "" {
				bad("On(%q, %q, %q): the %s %s", t.From, t.Event, t.To, w[0], why)
			}
		}
		for _, u := range m.trans[:i] {
			if u.From == t.From && u.Event == t.Event && u.To != t.To {
				bad("in state %q the event %q moves to both %q and %q: an event moves an instance to one state; rename one event", t.From, t.Event, u.To, t.To)
			}
		}
		if m.IsFinal(t.From) {
			bad("the final state %q has a way out (On(%q, %q, %q)): remove it, or do not mark %q final", t.From, t.From, t.Event, t.To, t.From)
		}
	}
	reached := m.reachable()
	for _, s := range m.States() {
		switch {
		case !slices.Contains(reached, s):
			bad("no transition reaches the state %q from the initial state %q: add one (On(..., %q)), or remove the state", s, m.initial, s)
		case !m.IsFinal(s) && len(m.Leaving(s)) == 0:
			bad("the state %q has no way out and is not final: add a transition from it, or mark it Final", s)
		}
	}
	if m.ttl < 0 {
		bad("TTL(%v) is negative: give how long an instance lives, or leave the default (%v)", m.ttl, DefaultTTL)
	}
	if len(m.finals) == 0 && len(m.trans) > 0 {
		bad("has no final state: mark the states an instance ends in with Final")
	}
	return errors.Join(errs...)
}

// reachable returns the states reachable from the initial one.
func (m *Machine) reachable() []string {
	seen := []string{m.initial}
	for i := 0; i < len(seen); i++ {
		for _, t := range m.trans {
			if t.From == seen[i] && !slices.Contains(seen, t.To) {
				seen = append(seen, t.To)
			}
		}
	}
	return seen
}

// checkWord says why w is not a state, event or machine name, or "" when
// it is one: 1 to 64 letters, digits, '_', '-' or '.'.
func checkWord(w string) string {
	switch {
	case w == "":
		return "is empty"
	case len(w) > 64:
		return fmt.Sprintf("%q is longer than 64 bytes", strings.ToValidUTF8(w[:64], "")+"…")
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return fmt.Sprintf("%q holds %q: use letters, digits, '_', '-' and '.'", w, string(r))
		}
	}
	return ""
}
