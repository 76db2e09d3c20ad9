package engine

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/store"
)

// The workflow gate (package workflow): an action bound to a machine runs
// only when its instance is in a state the action is allowed in. The
// gate stands in dispatch, where every path of a call passes (the lanes,
// the go-sdk's sessions and stateless requests, tasks, stdio, in
// process), after the call is authorised, valid and within its limits and
// before a task's record is made; what the handler did is settled where
// it returns (run). A call that fires no event reads the instance (one
// store round trip); one that fires an event claims the move before the
// handler runs and commits it when the handler succeeds or releases it
// when it fails (two): of two racing calls from one state, one handler
// runs and the other is refused without running.

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

	owner   string
	claim   string
	starts  bool
	expires time.Time

	mu   sync.Mutex
	data map[string]json.RawMessage // as the instance holds it
	set  map[string]json.RawMessage // what the handler attached
}

// ErrStepReadOnly: a call that fires no event attaches no data.
var ErrStepReadOnly = errors.New("vurb: only a call that starts or moves a workflow instance (Starts, Fires) attaches data to it; this one reads it")

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
	if s.set == nil {
		s.set = map[string]json.RawMessage{}
	}
	s.set[key] = v
	return nil
}

// StepFrom returns the workflow step of the call ctx belongs to, or nil.
func StepFrom(ctx context.Context) *Step {
	if c := CallFrom(ctx); c != nil {
		return c.step
	}
	return nil
}

// The margin a claim's lease keeps past its call's deadline: a handler
// returning just in time still commits.
const leaseMargin = 30 * time.Second

// enterFlow opens the call's instance and reserves its move, or returns
// the refusal the model reads.
func (ep *Endpoint) enterFlow(ctx context.Context, cc *callContext) *mcp.CallToolResult {
	f, rt, o := ep.flow, ep.rt, cc.call.origin
	m := f.Machine
	owner := rt.flowOwner(o)
	now := rt.now()
	s := &Step{Machine: m.Name, owner: owner}
	switch {
	case m.BySession:
		key := rt.sessionKey(o)
		if key == "" {
			return ep.refuse(fmt.Sprintf("this action belongs to the workflow %q, which follows a session, and this request has none: call it over a session (stdio, or HTTP with protocol revision %s or earlier)", m.Name, lastSessionRevision))
		}
		s.ID, s.owner = m.Name+"/"+key, key
	case f.Starts:
		s.ID, s.starts = newInstanceID(), true
		s.From, s.To, s.expires = m.Initial, m.Initial, now.Add(m.TTL)
		if f.Event != "" {
			s.To, _ = m.next(m.Initial, f.Event)
		}
		s.Handle = rt.handles.Seal(m.Name, owner, s.ID, s.expires)
		cc.call.step = s
		return nil
	default:
		id, err := rt.handles.Open(m.Name, owner, f.Handle(cc.call.Input), now)
		if err != nil {
			return ep.refuseHandle(err)
		}
		s.ID = id
	}
	in, err := ep.claim(ctx, s, now)
	if m.BySession && errors.Is(err, store.ErrNoInstance) {
		// A session's instance starts at its first call.
		err = rt.Workflows.Create(ctx, &store.Instance{ID: s.ID, Machine: m.Name, State: m.Initial, Owner: s.owner, Expires: now.Add(m.TTL)})
		if err == nil || errors.Is(err, store.ErrInstanceExists) {
			in, err = ep.claim(ctx, s, now)
		}
	}
	switch {
	case errors.Is(err, store.ErrNoInstance) || err == nil && (in.Owner != s.owner || in.Machine != m.Name):
		return ep.refuseHandle(ErrHandleUnknown)
	case errors.Is(err, store.ErrOutOfState):
		return ep.refuseState(o, in, now)
	case errors.Is(err, store.ErrWorkflowsFull):
		return ep.refuse(err.Error())
	case err != nil:
		rt.Logger.Error("vurb: workflow store", "tool", ep.tool, "action", ep.action, "err", err.Error())
		return ep.refuse(fmt.Sprintf("the workflow %q could not be read (its store is unavailable); nothing ran: retry shortly", m.Name))
	case s.claim == "" && !slices.Contains(f.States, in.State):
		return ep.refuseState(o, in, now)
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
func (ep *Endpoint) claim(ctx context.Context, s *Step, now time.Time) (*store.Instance, error) {
	if ep.flow.Event == "" {
		return ep.rt.Workflows.Get(ctx, s.ID)
	}
	s.claim = newInstanceID()
	return ep.rt.Workflows.Claim(ctx, s.ID, ep.moves, s.claim, ep.timeout+leaseMargin)
}

// settle makes what the handler did of its step: the instance a starter
// made, the move a call claimed (committed when the handler succeeded,
// released when it failed). A failure to keep it is the call's, since the
// client must not believe a move made that was not.
func (ep *Endpoint) settle(cc *callContext, s *Step, ok bool) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(cc.call.parent), leaseMargin)
	defer cancel()
	st := ep.rt.Workflows
	var err error
	switch {
	case s.starts && ok:
		err = st.Create(ctx, &store.Instance{ID: s.ID, Machine: s.Machine, State: s.To, Owner: s.owner, Data: s.set, Expires: s.expires})
	case s.claim == "":
		return nil
	case ok:
		err = st.Commit(ctx, s.ID, s.claim, s.set, s.expires)
	default:
		if err := st.Release(ctx, s.ID, s.claim); err != nil {
			ep.rt.Logger.Warn("vurb: workflow claim not released (it lapses with its lease)", "tool", ep.tool, "action", ep.action, "err", err.Error())
		}
		return nil
	}
	switch {
	case err == nil:
		ep.moved(cc, s)
		return nil
	case errors.Is(err, store.ErrWorkflowsFull):
		return err
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
	if len(out.Meta) > 0 {
		for k, v := range out.Meta {
			if k != MetaWorkflow {
				meta[k] = v
			}
		}
	}
	out.Meta = meta
	return &out
}

// refuseHandle answers a handle that does not open, or whose instance is
// gone: the same words for another caller's, a forged one and a finished
// one, so that a handle tells nothing about what it is not.
func (ep *Endpoint) refuseHandle(err error) *mcp.CallToolResult {
	f := ep.flow
	start := ep.rt.starters(f.Machine.Name)
	var b strings.Builder
	b.WriteString(err.Error())
	if f.HandleField != "" && errors.Is(err, ErrHandleUnknown) {
		fmt.Fprintf(&b, ": %q is not the handle of a live %s workflow instance of yours (pass it exactly as it was returned)", f.HandleField, f.Machine.Name)
	}
	if len(start) > 0 {
		fmt.Fprintf(&b, "; start a new one with %s", strings.Join(start, " or "))
	}
	return ep.refuse(b.String())
}

// refuseState answers a call its instance's state does not allow, naming
// the way on: the actions the caller may call in that state.
func (ep *Endpoint) refuseState(o *Origin, in *store.Instance, now time.Time) *mcp.CallToolResult {
	m := ep.flow.Machine
	var b strings.Builder
	if in.Claimed(now) && slices.Contains(ep.flow.States, in.State) {
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

// flowOwner is whom an instance is bound to: the verified subject, else
// the session the call came through, else this process (stdio, in
// process); an anonymous HTTP request without a session is its network
// host, as its quotas are (so that one such caller fills its own share
// of the store, not every anonymous caller's). Never a value the client
// chose.
func (rt *Runtime) flowOwner(o *Origin) string {
	if o.Token != nil && o.Token.UserID != "" {
		return "sub:" + o.Token.UserID
	}
	if key := rt.sessionKey(o); key != "" {
		return key
	}
	if host := o.Host(); host != "" {
		return "host:" + host
	}
	return "anonymous"
}

// sessionKey names the session a call came through: "session:" and its
// id, or for a session without one (stdio, in memory) a name vurb gives
// it for its life; "process:" and the process's name for an in-process
// call; "" for a call without a session over HTTP.
func (rt *Runtime) sessionKey(o *Origin) string {
	switch {
	case o.SessionID != "":
		return "session:" + o.SessionID
	case o.Session != nil:
		if id := o.Session.ID(); id != "" {
			return "session:" + id
		}
		return "session:" + rt.sessions.name(o.Session)
	case o.Header == nil:
		return "process:" + rt.sessions.process()
	}
	return ""
}

// newInstanceID returns 16 random bytes, base64url: an instance's id, a
// claim's name.
func newInstanceID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// lastSessionRevision is the last protocol revision with sessions.
const lastSessionRevision = "2025-11-25"

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
