package engine

import (
	"context"
	"errors"
	"slices"

	"github.com/vurb-go/vurb/store"
)

// HasFlows reports whether some action of the plan is bound to a
// workflow: its refusals name the actions the caller is shown.
func (p *Plan) HasFlows() bool { return len(p.rt.flows) > 0 }

// SessionFlows reports whether the plan has a workflow keyed by session,
// whose state a session's list of tools follows.
func (p *Plan) SessionFlows() bool { return len(p.rt.sessionFlows) > 0 }

// SessionStates returns the state of each workflow keyed by session for
// the session of o, by machine name (the initial state where the session
// has no instance yet): nil when o has no session or the plan no such
// workflow. It reads the store once per machine; a machine whose
// instance cannot be read is left out, and its actions stay listed.
func (p *Plan) SessionStates(ctx context.Context, o *Origin) map[string]string {
	if len(p.rt.sessionFlows) == 0 {
		return nil
	}
	key := p.rt.sessionKey(o)
	if key == "" {
		return nil
	}
	out := make(map[string]string, len(p.rt.sessionFlows))
	for _, m := range p.rt.sessionFlows {
		switch in, err := p.rt.Workflows.Get(ctx, m.Name+"/"+key); {
		case err == nil:
			out[m.Name] = in.State
		case errors.Is(err, store.ErrNoInstance):
			out[m.Name] = m.Initial
		default:
			p.rt.Logger.Warn("vurb: workflow store: a session's list shows every action of its workflow", "workflow", m.Name, "err", err.Error())
		}
	}
	return out
}

// ListedIn reports whether a session whose workflows are in states (by
// machine, SessionStates) lists ep: an action of a workflow keyed by
// session only in the states it runs in.
func (ep *Endpoint) ListedIn(states map[string]string) bool {
	f := ep.flow
	if f == nil || !f.Machine.BySession {
		return true
	}
	state, ok := states[f.Machine.Name]
	return !ok || slices.Contains(f.States, state)
}

// OnSessionMoved sets what is told of each move of an instance keyed by
// a session (the edge sends the session notifications/tools/list_changed).
func (rt *Runtime) OnSessionMoved(f func(o *Origin)) { rt.sessionMoved.Store(&f) }
