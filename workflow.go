package vurb

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/model"
	"github.com/vurb-go/vurb/store"
	"github.com/vurb-go/vurb/workflow"
)

// When binds the action to machine m: it runs only while the instance it
// names is in one of states, and is refused otherwise, before its handler
// runs, with the state the instance is in and the actions that can move
// it on. The instance is the one the input's workflow.Handle field names,
// or, for a machine keyed by session (workflow.Machine.BySession), the
// caller's session's. An action binds to one machine.
func (a *ActionDef) When(m *workflow.Machine, states ...string) *ActionDef {
	a.mustBeMutable()
	a.bindFlow(m, "When")
	a.flowStates = append(a.flowStates, states...)
	return a
}

// Starts makes the action start an instance of machine m: each call
// that succeeds makes a new one, in the initial state (or the state its
// event moves to, with Fires), whose handle the handler returns to the
// model from workflow.From(ctx).Handle() in a workflow.Handle field of its
// output. A machine keyed by session starts by itself and has no
// starting action.
func (a *ActionDef) Starts(m *workflow.Machine) *ActionDef {
	a.mustBeMutable()
	a.bindFlow(m, "Starts")
	a.flowStarts = true
	return a
}

// Fires makes a successful call of the action fire event on its instance,
// moving it to the state the machine gives: the move is claimed before
// the handler runs (of two calls racing from one state, one runs and the
// other is refused), made when the handler succeeds and dropped when it
// fails.
func (a *ActionDef) Fires(event string) *ActionDef {
	a.mustBeMutable()
	a.flowEvent = event
	return a
}

func (a *ActionDef) bindFlow(m *workflow.Machine, how string) {
	switch {
	case m == nil:
		panic(fmt.Sprintf("vurb: action %q: %s(nil): pass the machine declared with workflow.New", a.canonicalKey(), how))
	case a.flowMachine != nil && a.flowMachine != m:
		panic(fmt.Sprintf("vurb: action %q is bound to the workflows %q and %q: an action belongs to one machine", a.canonicalKey(), a.flowMachine.Name(), m.Name()))
	}
	a.flowMachine = m
}

// lowerFlows checks the app's workflow bindings as a whole and lowers
// them onto the actions' specs: one FlowMachine per machine, shared. It
// panics with every definition error at once, each saying what to change.
func (a *App) lowerFlows(defs []*ActionDef, specs []*engine.ActionSpec) {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	machines := map[*workflow.Machine]*engine.FlowMachine{}
	byName := map[string]*workflow.Machine{}
	bound := map[*workflow.Machine][]*ActionDef{}
	for i, d := range defs {
		m := d.flowMachine
		if m == nil {
			if d.flowEvent != "" {
				bad("vurb: action %q fires %q but is bound to no workflow: bind it with When(machine, states...)", d.canonicalKey(), d.flowEvent)
			}
			continue
		}
		if other, ok := byName[m.Name()]; ok && other != m {
			bad("vurb: two workflows are named %q: rename one (a machine's name keys its instances)", m.Name())
			continue
		}
		byName[m.Name()] = m
		fm, ok := machines[m]
		if !ok {
			if err := m.Check(); err != nil {
				bad("vurb: %w", err)
			}
			fm = lowerMachine(m)
			machines[m] = fm
		}
		bound[m] = append(bound[m], d)
		f := &engine.FlowSpec{Machine: fm, States: slices.Clone(d.flowStates), Event: d.flowEvent, Starts: d.flowStarts}
		errs = append(errs, checkBinding(d, m, f)...)
		if !f.Starts && !m.IsBySession() {
			f.Handle, f.HandleField = handleReader(d)
			if f.Handle == nil {
				bad("vurb: action %q is bound to the workflow %q and its input %s has no workflow.Handle field: add one (the model passes the handle %s returned), or key the machine by session (BySession)",
					d.canonicalKey(), m.Name(), d.codec.Type(), strings.Join(starterKeys(defs, m), " or "))
			}
		}
		specs[i].Flow = f
	}
	for m := range machines {
		errs = append(errs, checkMachineBound(m, defs)...)
	}
	if len(errs) > 0 {
		panic(errors.Join(errs...).Error())
	}
}

// lowerMachine copies m into the plan.
func lowerMachine(m *workflow.Machine) *engine.FlowMachine {
	fm := &engine.FlowMachine{Name: m.Name(), Initial: m.Initial(), Next: map[string]string{},
		BySession: m.IsBySession(), TTL: m.InstanceTTL()}
	for _, t := range m.Transitions() {
		fm.Next[t.From+"\x00"+t.Event] = t.To
	}
	for _, s := range m.States() {
		if m.IsFinal(s) {
			fm.Finals = append(fm.Finals, s)
		}
	}
	return fm
}

// checkBinding returns the definition errors of one action's binding.
func checkBinding(d *ActionDef, m *workflow.Machine, f *engine.FlowSpec) []error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("vurb: action %q (workflow %q): "+format, append([]any{d.canonicalKey(), m.Name()}, args...)...))
	}
	states := m.States()
	switch {
	case f.Starts && len(f.States) > 0:
		bad("both starts an instance and is bound to states %v: a starting action makes a new instance; drop When, or Starts", f.States)
	case f.Starts && m.IsBySession():
		bad("starts an instance of a machine keyed by session, whose instance starts by itself at the session's first call: drop Starts, or bind it with When(%q)", m.Initial())
	case !f.Starts && len(f.States) == 0:
		bad("is bound to no state: name the states it runs in, When(machine, %q, ...)", m.Initial())
	}
	if f.Event != "" && !slices.Contains(m.Events(), f.Event) {
		bad("fires %q, which no transition of the machine has: declare it with On(from, %q, to), or fire one of %v", f.Event, f.Event, m.Events())
	}
	for _, s := range f.States {
		switch {
		case !slices.Contains(states, s):
			bad("names the state %q, which the machine has not: use one of %v", s, states)
		case f.Event != "" && slices.Contains(m.Events(), f.Event):
			if _, ok := m.Next(s, f.Event); !ok {
				bad("fires %q in state %q, where no transition has it: add On(%q, %q, to), or drop %q from its states", f.Event, s, s, f.Event, s)
			}
		}
	}
	if f.Starts && f.Event != "" && slices.Contains(m.Events(), f.Event) {
		if _, ok := m.Next(m.Initial(), f.Event); !ok {
			bad("starts an instance and fires %q, which does not move one from the initial state %q: add On(%q, %q, to)", f.Event, m.Initial(), m.Initial(), f.Event)
		}
	}
	return errs
}

// checkMachineBound returns the errors of a machine the app's actions do
// not drive: no starting action for a machine keyed by handle, a state no
// action moves an instance out of (it would be stuck there).
func checkMachineBound(m *workflow.Machine, defs []*ActionDef) []error {
	var errs []error
	starts := false
	leaves := map[string]bool{} // the states some action moves an instance out of
	for _, d := range defs {
		if d.flowMachine != m {
			continue
		}
		starts = starts || d.flowStarts
		for _, s := range d.flowStates {
			if to, ok := m.Next(s, d.flowEvent); ok && to != s {
				leaves[s] = true
			}
		}
	}
	if !starts && !m.IsBySession() {
		errs = append(errs, fmt.Errorf("vurb: workflow %q: no action starts an instance: mark one with Starts(machine), or key the machine by session (BySession)", m.Name()))
	}
	for _, s := range m.States() {
		if !m.IsFinal(s) && len(m.Leaving(s)) > 0 && !leaves[s] {
			errs = append(errs, fmt.Errorf("vurb: workflow %q: no action moves an instance out of the state %q, so one there is stuck: bind one with When(machine, %q) that fires one of %v", m.Name(), s, s, m.Leaving(s)))
		}
	}
	return errs
}

// starterKeys names the actions that start m, for a definition error.
func starterKeys(defs []*ActionDef, m *workflow.Machine) []string {
	var out []string
	for _, d := range defs {
		if d.flowMachine == m && d.flowStarts {
			out = append(out, d.canonicalKey())
		}
	}
	if len(out) == 0 {
		return []string{"its starting action"}
	}
	return out
}

var typeHandle = reflect.TypeFor[workflow.Handle]()

// handleReader finds the workflow.Handle field of the action's input (a
// field of the struct itself, not of a nested one) and returns what reads
// it from a decoded input, with its property name; nil when there is none.
func handleReader(d *ActionDef) (func(any) string, string) {
	t := d.codec.Type()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, ""
	}
	for _, sf := range reflect.VisibleFields(t) { // an embedded struct's fields too, as JSON flattens them
		if sf.Type != typeHandle || !sf.IsExported() || sf.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue // not in the JSON: the model cannot pass it
		}
		if name == "" {
			name = sf.Name
		}
		index := sf.Index
		return func(in any) string {
			v := reflect.ValueOf(in)
			for v.Kind() == reflect.Pointer {
				v = v.Elem()
			}
			return v.FieldByIndex(index).String()
		}, name
	}
	return nil, ""
}

// workflowStore is the store of the app's workflow instances: the
// replicas' when they share one, else one in memory.
func (a *App) workflowStore() store.Workflows {
	if w := a.cfg.replicas.Workflows; w != nil {
		return w
	}
	return store.NewMemoryWorkflows(0)
}

// modelWorkflow is the action's binding as the model and the manifest
// state it: a removed transition or a narrowed binding is a contract
// change.
func (d *ActionDef) modelWorkflow() *model.Workflow {
	m := d.flowMachine
	if m == nil {
		return nil
	}
	mm := model.Machine{Name: m.Name(), Initial: m.Initial(), BySession: m.IsBySession()}
	for _, t := range m.Transitions() {
		mm.Transitions = append(mm.Transitions, model.Transition{From: t.From, Event: t.Event, To: t.To})
	}
	for _, s := range m.States() {
		if m.IsFinal(s) {
			mm.Finals = append(mm.Finals, s)
		}
	}
	return &model.Workflow{Machine: mm, States: slices.Clone(d.flowStates), Fires: d.flowEvent, Starts: d.flowStarts}
}
