package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/store"
)

// refuse is a refusal of the gate: nothing ran.
func (ep *Endpoint) refuse(why string) *mcp.CallToolResult {
	res := ErrorResult(ep.prefix + why)
	res.Meta = flowMeta(ep.flow.Machine.Name, "", nil)
	return res
}

// refuseIn is a refusal of a call to an instance in state, where allowed
// are the actions the caller may call.
func (ep *Endpoint) refuseIn(why, state string, allowed []string) *mcp.CallToolResult {
	res := ErrorResult(ep.prefix + why)
	if allowed == nil {
		allowed = []string{}
	}
	res.Meta = flowMeta(ep.flow.Machine.Name, state, allowed)
	return res
}

// refuseHandle answers a handle that does not open, or whose instance is
// gone: the same words for another caller's, a forged one and a finished
// one, so that a handle tells nothing about what it is not.
func (ep *Endpoint) refuseHandle(err error) *mcp.CallToolResult {
	f := ep.flow
	var b strings.Builder
	b.WriteString(err.Error())
	if f.HandleField != "" && errors.Is(err, ErrHandleUnknown) {
		fmt.Fprintf(&b, ": %q is not the handle of a live %s workflow instance of yours (pass it exactly as it was returned)", f.HandleField, f.Machine.Name)
	}
	if start := ep.rt.starters(f.Machine.Name); len(start) > 0 {
		fmt.Fprintf(&b, "; start a new one with %s", strings.Join(start, " or "))
	}
	return ep.refuse(b.String())
}

// refuseState answers a call its instance's state does not allow, or
// that another call's claim holds back, naming the way on: the actions
// the caller may call in that state. in is the instance as the store
// refused the claim (nil from a store that gave none).
func (ep *Endpoint) refuseState(o *Origin, in *store.Instance) *mcp.CallToolResult {
	m := ep.flow.Machine
	if in == nil {
		return ep.refuse(fmt.Sprintf("this %s workflow instance is not in a state this action runs in, or another call is moving it; nothing ran: call again", m.Name))
	}
	var b strings.Builder
	if slices.Contains(ep.flow.States, in.State) {
		// In one of the action's states, the store refused only for a
		// claim another call holds (by the store's clock, not this
		// replica's).
		fmt.Fprintf(&b, "another call is moving this %s workflow instance on from state %q right now; nothing ran: call again once it has returned", m.Name, in.State)
		return ep.refuseIn(b.String(), in.State, nil)
	}
	fmt.Fprintf(&b, "not allowed now: this %s workflow instance is in state %q, and this action needs %s", m.Name, in.State, quoteJoin(ep.flow.States))
	if slices.Contains(m.Finals, in.State) {
		b.WriteString("; the instance is finished")
		if start := ep.rt.starters(m.Name); len(start) > 0 {
			fmt.Fprintf(&b, ": start a new one with %s", strings.Join(start, " or "))
		}
		return ep.refuseIn(b.String(), in.State, nil)
	}
	way, refs := ep.rt.wayOn(m.Name, in.State, o)
	if len(way) > 0 {
		b.WriteString(". In this state you can call: ")
		b.WriteString(strings.Join(way, "; "))
	}
	return ep.refuseIn(b.String(), in.State, refs)
}

// wayOn lists how a model calls each action the caller is shown that is
// allowed in state, with the state its event moves to, and the calls
// alone.
func (rt *Runtime) wayOn(machine, state string, o *Origin) (way, refs []string) {
	var sees func(wire, key string) bool
	if o != nil && o.Sight != nil {
		sees = o.Sight(o)
	}
	for _, ep := range rt.flows[machine] {
		f := ep.flow
		if f.Starts || !slices.Contains(f.States, state) || sees != nil && !sees(ep.name, ep.key) || slices.Contains(refs, ep.ref) {
			continue
		}
		w := ep.ref
		switch to, ok := f.Machine.next(state, f.Event); {
		case ok && to == state:
			w += fmt.Sprintf(" (it stays in %q)", to)
		case ok:
			w += fmt.Sprintf(" (moves it to %q)", to)
		}
		way, refs = append(way, w), append(refs, ep.ref)
	}
	return way, refs
}

// starters lists how a model calls the actions that start machine.
func (rt *Runtime) starters(machine string) []string {
	var out []string
	for _, ep := range rt.flows[machine] {
		if ep.flow.Starts && !slices.Contains(out, ep.ref) {
			out = append(out, ep.ref)
		}
	}
	return out
}

func quoteJoin(states []string) string {
	q := make([]string, len(states))
	for i, s := range states {
		q[i] = strconv.Quote(s)
	}
	if len(q) == 1 {
		return "state " + q[0]
	}
	return "one of the states " + strings.Join(q, ", ")
}
