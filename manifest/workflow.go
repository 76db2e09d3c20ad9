package manifest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/vurb-go/vurb/model"
)

// Workflow is a state machine that gates a vurb app's actions (package
// workflow): a client depends on which calls move an instance where, so
// a removed transition or state breaks it.
type Workflow struct {
	Name    string `json:"name"`
	Initial string `json:"initial"`
	// Keyed is "handle" when instances are named by handles the actions
	// take, "session" when by the caller's session.
	Keyed       string       `json:"keyed"`
	Finals      []string     `json:"finals,omitempty"`
	Transitions []Transition `json:"transitions"`
}

// Transition is one edge of a workflow.
type Transition struct {
	From  string `json:"from"`
	Event string `json:"event"`
	To    string `json:"to"`
}

func (t Transition) id() string { return t.From + " --" + t.Event + "--> " + t.To }

// Binding is an action's place in a workflow: the states it runs in
// (none for a starter), the event a success fires, whether it starts an
// instance.
type Binding struct {
	Workflow string   `json:"workflow"`
	States   []string `json:"states,omitempty"`
	Fires    string   `json:"fires,omitempty"`
	Starts   bool     `json:"starts,omitempty"`
}

// workflowsOf adds the model's workflows to out: each action's binding,
// and each machine once.
func workflowsOf(m *model.Model, out *Manifest) {
	seen := map[string]bool{}
	for i, a := range m.Actions() {
		w := a.Workflow()
		if w == nil {
			continue
		}
		out.Actions[i].Workflow = &Binding{Workflow: w.Machine.Name, States: w.States, Fires: w.Fires, Starts: w.Starts}
		if seen[w.Machine.Name] {
			continue
		}
		seen[w.Machine.Name] = true
		mw := Workflow{Name: w.Machine.Name, Initial: w.Machine.Initial, Keyed: "handle", Finals: w.Machine.Finals}
		if w.Machine.BySession {
			mw.Keyed = "session"
		}
		for _, t := range w.Machine.Transitions {
			mw.Transitions = append(mw.Transitions, Transition{From: t.From, Event: t.Event, To: t.To})
		}
		out.Workflows = append(out.Workflows, mw)
	}
}

// normalizeWorkflows sorts the workflows by name, and each one's lists.
func normalizeWorkflows(ws []Workflow) []Workflow {
	ws = slices.Clone(ws)
	for i := range ws {
		w := &ws[i]
		w.Finals = sorted(w.Finals)
		w.Transitions = slices.Clone(w.Transitions)
		slices.SortFunc(w.Transitions, func(x, y Transition) int {
			return cmp.Or(strings.Compare(x.From, y.From), strings.Compare(x.Event, y.Event), strings.Compare(x.To, y.To))
		})
	}
	slices.SortFunc(ws, func(x, y Workflow) int { return strings.Compare(x.Name, y.Name) })
	return ws
}

func (b *Binding) normalized() *Binding {
	if b == nil {
		return nil
	}
	c := *b
	c.States = sorted(b.States)
	return &c
}

// workflows classifies the changes of the workflows: one removed, a
// transition removed, the initial state, the final states or the keying
// changed break a client that drives it; one or a transition added does
// not.
func (d *differ) workflows(old, new []Workflow) {
	pair(old, new, func(w Workflow) string { return w.Name },
		func(w Workflow) {
			d.add(WorkflowRemoved, true, "workflows/"+w.Name, "workflow removed: its actions no longer move an instance")
		},
		func(w Workflow) { d.add(WorkflowAdded, false, "workflows/"+w.Name, "new workflow") },
		func(a, b Workflow) {
			path := "workflows/" + a.Name
			if a.Initial != b.Initial {
				d.add(WorkflowChanged, true, path, "instances start in %q, not %q", b.Initial, a.Initial)
			}
			if a.Keyed != b.Keyed {
				d.add(WorkflowChanged, true, path, "instances are keyed by %s, not by %s", b.Keyed, a.Keyed)
			}
			if gone := minus(a.Finals, b.Finals); len(gone) > 0 {
				d.add(WorkflowChanged, true, path, "no longer final: %s", strings.Join(gone, ", "))
			}
			if added := minus(b.Finals, a.Finals); len(added) > 0 {
				d.add(WorkflowChanged, true, path, "now final (an instance there moves no more): %s", strings.Join(added, ", "))
			}
			pair(a.Transitions, b.Transitions, Transition.id,
				func(t Transition) {
					d.add(TransitionRemoved, true, path+"/"+t.id(), "transition removed: %q no longer moves an instance from %q to %q", t.Event, t.From, t.To)
				},
				func(t Transition) { d.add(TransitionAdded, false, path+"/"+t.id(), "new transition") },
				func(Transition, Transition) {})
		})
}

// binding classifies the change of an action's place in a workflow: a
// call that ran may now be refused when the action is newly gated, runs
// in fewer states, fires another event or stops starting instances.
func (d *differ) binding(path string, a, b *Binding) {
	p := path + "/workflow"
	switch {
	case a == nil && b == nil:
	case a == nil:
		d.add(GateNarrowed, true, p, "now gated by the workflow %q: calls outside its states are refused", b.Workflow)
	case b == nil:
		d.add(GateWidened, false, p, "no longer gated by the workflow %q", a.Workflow)
	case a.Workflow != b.Workflow:
		d.add(GateNarrowed, true, p, "gated by the workflow %q, not %q", b.Workflow, a.Workflow)
	default:
		if gone := minus(a.States, b.States); len(gone) > 0 {
			d.add(GateNarrowed, true, p, "no longer runs in %s", strings.Join(gone, ", "))
		}
		if added := minus(b.States, a.States); len(added) > 0 {
			d.add(GateWidened, false, p, "now runs in %s too", strings.Join(added, ", "))
		}
		if a.Fires != b.Fires {
			d.add(GateNarrowed, true, p, "fires %s, not %s", orNone(b.Fires), orNone(a.Fires))
		}
		if a.Starts != b.Starts {
			d.add(GateNarrowed, true, p, "starts instances: %v, was %v", b.Starts, a.Starts)
		}
	}
}

func orNone(event string) string {
	if event == "" {
		return "no event"
	}
	return fmt.Sprintf("%q", event)
}
