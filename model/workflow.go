package model

import "slices"

// Workflow is an action's binding to a workflow (package workflow): the
// machine, the states the action runs in, the event a success fires and
// whether it starts an instance.
type Workflow struct {
	Machine Machine
	// States are the states the action runs in; none for a starter.
	States []string
	// Fires is the event a successful call fires, "" for none.
	Fires string
	// Starts is true for an action that starts an instance.
	Starts bool
}

// Machine is a workflow's state machine as its declaration states it.
type Machine struct {
	Name    string
	Initial string
	// BySession is true when instances are keyed by the caller's session,
	// false when by handle.
	BySession   bool
	Finals      []string
	Transitions []Transition
}

// Transition is one edge of a machine: in state From, Event moves an
// instance to state To.
type Transition struct{ From, Event, To string }

func (w *Workflow) clone() *Workflow {
	if w == nil {
		return nil
	}
	c := *w
	c.States = slices.Clone(w.States)
	c.Machine.Finals = slices.Clone(w.Machine.Finals)
	c.Machine.Transitions = slices.Clone(w.Machine.Transitions)
	return &c
}

// Workflow returns the action's binding to a workflow, nil when it has
// none.
func (a *Action) Workflow() *Workflow { return a.workflow.clone() }
