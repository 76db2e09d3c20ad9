package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/store"
)

// The workflow gate (package workflow): an action bound to a machine runs
// only when its instance is in a state the action is allowed in. The
// gate stands in dispatch, where every path of a call passes (the lanes,
// the go-sdk's sessions and stateless requests, tasks, stdio, in
// process), after the call is authorised, valid and within its limits and
// before its input round opens and a task's record is made; what the
// handler did is settled where it returns (run). A call that fires no
// event reads the instance (one store round trip); one that fires an
// event claims the move before the handler runs and commits it when the
// handler succeeds or releases it when it fails (two): of two racing
// calls from one state, one handler runs and the other is refused without
// running.

// The margin a claim's lease keeps past its call's deadline: a handler
// returning just in time still commits.
const leaseMargin = 30 * time.Second

// lastSessionRevision is the last protocol revision with sessions.
const lastSessionRevision = "2025-11-25"

// enterFlow opens the call's instance and reserves its move, or returns
// the refusal the model reads.
func (ep *Endpoint) enterFlow(ctx context.Context, cc *callContext) *mcp.CallToolResult {
	f, rt, o := ep.flow, ep.rt, cc.call.origin
	m := f.Machine
	now := rt.now()
	s := &Step{Machine: m.Name, owner: o.CallerKey()}
	switch {
	case m.BySession:
		key := rt.sessionKey(o)
		if key == "" {
			return ep.refuse(fmt.Sprintf("this action belongs to the workflow %q, which follows a session, and this request has none: call it over a session (stdio, or HTTP with protocol revision %s or earlier)", m.Name, lastSessionRevision))
		}
		s.ID = m.Name + "/" + key
	case f.Starts:
		s.ID, s.starts = newInstanceID(), true
		s.From, s.To, s.expires = m.Initial, m.Initial, now.Add(m.TTL)
		if f.Event != "" {
			s.To, _ = m.next(m.Initial, f.Event)
		}
		s.Handle = rt.handles.Seal(m.Name, rt.flowOwner(o), s.ID, s.expires)
		cc.call.step = s
		return nil
	default:
		// The handle is bound to its owner and machine: one that opens is
		// the caller's own, without asking the store.
		id, err := rt.handles.Open(m.Name, rt.flowOwner(o), f.Handle(cc.call.Input), now)
		if err != nil {
			return ep.refuseHandle(err)
		}
		s.ID = id
	}
	in, err := ep.claim(ctx, s)
	if m.BySession && errors.Is(err, store.ErrNoInstance) {
		// A session's instance starts at its first call.
		err = rt.Workflows.Create(ctx, &store.Instance{ID: s.ID, Machine: m.Name, State: m.Initial, Owner: s.owner, Expires: now.Add(m.TTL)})
		if err == nil || errors.Is(err, store.ErrInstanceExists) {
			in, err = ep.claim(ctx, s)
		}
	}
	if err == nil && in.Machine != m.Name { // a store's mistake: never another machine's instance
		ep.dropClaim(ctx, s)
		err = store.ErrNoInstance
	}
	switch {
	case errors.Is(err, store.ErrNoInstance):
		return ep.refuseHandle(ErrHandleUnknown)
	case errors.Is(err, store.ErrOutOfState):
		return ep.refuseState(o, in)
	case errors.Is(err, store.ErrWorkflowsFull):
		return ep.refuse(strings.TrimPrefix(err.Error(), "vurb: "))
	case err != nil:
		rt.Logger.Error("vurb: workflow store", "tool", ep.tool, "action", ep.action, "err", err.Error())
		return ep.refuse(fmt.Sprintf("the workflow %q could not be read (its store is unavailable); nothing ran: retry shortly", m.Name))
	case s.claim == "" && !slices.Contains(f.States, in.State):
		return ep.refuseState(o, in)
	}
	s.From, s.To, s.data, s.expires = in.State, in.State, in.Data, in.Expires
	if s.claim != "" {
		s.To = ep.moves[in.State] // the store returns the instance as it was
	}
	cc.call.step = s
	return nil
}

// claim reads the instance of a call that fires no event, and reserves
// the move of one that fires one.
func (ep *Endpoint) claim(ctx context.Context, s *Step) (*store.Instance, error) {
	if ep.flow.Event == "" {
		return ep.rt.Workflows.Get(ctx, s.ID)
	}
	s.claim = newInstanceID()
	return ep.rt.Workflows.Claim(ctx, s.ID, ep.moves, s.claim, ep.timeout+leaseMargin)
}

// dropClaim drops the claim of a call that will not run.
func (ep *Endpoint) dropClaim(ctx context.Context, s *Step) {
	if s.claim == "" {
		return
	}
	if err := ep.rt.Workflows.Release(ctx, s.ID, s.claim); err != nil {
		ep.rt.Logger.Warn("vurb: workflow claim not released (it lapses with its lease)", "tool", ep.tool, "action", ep.action, "err", err.Error())
	}
}

// settle makes what the handler did of its step: the instance a starter
// made, the move a call claimed (committed when the handler succeeded,
// released when it failed). A failure to keep it is the call's, since the
// client must not believe a move made that was not.
func (ep *Endpoint) settle(cc *callContext, s *Step, ok bool) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(cc.call.parent), leaseMargin)
	defer cancel()
	data := s.settle()
	st := ep.rt.Workflows
	var err error
	switch {
	case s.starts && ok:
		err = st.Create(ctx, &store.Instance{ID: s.ID, Machine: s.Machine, State: s.To, Owner: s.owner, Data: data, Expires: s.expires})
	case s.claim == "":
		return nil
	case ok:
		err = st.Commit(ctx, s.ID, s.claim, data, s.expires)
	default:
		ep.dropClaim(ctx, s)
		return nil
	}
	switch {
	case err == nil:
		ep.moved(cc, s)
		return nil
	case errors.Is(err, store.ErrWorkflowsFull):
		return errors.New(strings.TrimPrefix(err.Error(), "vurb: "))
	case errors.Is(err, store.ErrOutOfState):
		err = fmt.Errorf("the claim on workflow instance %q lapsed before the handler returned (it ran %v past its deadline): the move was not made", s.ID, leaseMargin)
	}
	return InternalError{Err: fmt.Errorf("workflow %q: %w", s.Machine, err)}
}

// moved reports a move made: to the observer, and to a session whose
// list follows its instance's state.
func (ep *Endpoint) moved(cc *callContext, s *Step) {
	if obs := ep.rt.Observer; obs != nil && (s.From != s.To || s.starts) {
		e := ep.event(WorkflowMoved, cc.call.RequestID(), ep.rt.now())
		e.Workflow, e.From, e.To = s.Machine, s.From, s.To
		if s.starts {
			e.From = ""
		}
		obs(cc.call.parent, e)
	}
	if ep.flow.Machine.BySession && s.From != s.To {
		if moved := ep.rt.sessionMoved.Load(); moved != nil {
			(*moved)(cc.call.origin)
		}
	}
}
