package vurb_test

import (
	"context"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/manifest"
	"github.com/vurb-go/vurb/workflow"
)

// TestWorkflowDefinitionErrors: each mistake in a machine or a binding
// panics at Build naming what to change.
func TestWorkflowDefinitionErrors(t *testing.T) {
	machine := func() *workflow.Machine {
		return workflow.New("review", "draft").On("draft", "submit", "pending").On("pending", "approve", "approved").Final("approved")
	}
	noop := func(context.Context, cartIn) (string, error) { return "", nil }
	start := func(context.Context, struct{}) (cartOut, error) { return cartOut{}, nil }
	for _, tc := range []struct {
		name  string
		bind  func(app *vurb.App, m *workflow.Machine)
		wants []string
	}{
		{"an unknown state", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.submit", noop).When(m, "draft", "drafted").Fires("submit")
			vurb.Action(app, "doc.approve", noop).When(m, "pending").Fires("approve")
		}, []string{`action "doc.submit" (workflow "review"): names the state "drafted", which the machine has not: use one of [draft pending approved]`}},
		{"an event of no transition", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.submit", noop).When(m, "draft").Fires("send")
			vurb.Action(app, "doc.approve", noop).When(m, "pending").Fires("approve")
		}, []string{`fires "send", which no transition of the machine has: declare it with On(from, "send", to), or fire one of [submit approve]`}},
		{"an event not leaving a bound state", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.submit", noop).When(m, "draft", "pending").Fires("submit")
			vurb.Action(app, "doc.approve", noop).When(m, "pending").Fires("approve")
		}, []string{`fires "submit" in state "pending", where no transition has it: add On("pending", "submit", to), or drop "pending" from its states`}},
		{"a bound action with no state", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.submit", noop).When(m).Fires("submit")
			vurb.Action(app, "doc.approve", noop).When(m, "pending").Fires("approve")
		}, []string{`action "doc.submit" (workflow "review"): is bound to no state: name the states it runs in, When(machine, "draft", ...)`, `no action moves an instance out of the state "draft"`}},
		{"fires without a machine", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.submit", noop).When(m, "draft").Fires("submit")
			vurb.Action(app, "doc.approve", noop).When(m, "pending").Fires("approve")
			vurb.Action(app, "doc.other", noop).Fires("submit")
		}, []string{`action "doc.other" fires "submit" but is bound to no workflow: bind it with When(machine, states...)`}},
		{"no starting action", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.submit", noop).When(m, "draft").Fires("submit")
			vurb.Action(app, "doc.approve", noop).When(m, "pending").Fires("approve")
		}, []string{`workflow "review": no action starts an instance: mark one with Starts(machine), or key the machine by session (BySession)`}},
		{"a stuck state", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.submit", noop).When(m, "draft").Fires("submit")
			vurb.Query(app, "doc.show", noop).When(m, "draft", "pending") // runs there, moves nothing
		}, []string{`no action moves an instance out of the state "pending", so one there is stuck: bind one with When(machine, "pending") that fires one of [approve]`}},
		{"a handle the model cannot pass", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.submit", func(context.Context, struct {
				Doc workflow.Handle `json:"-"`
			}) (string, error) {
				return "", nil
			}).When(m, "draft").Fires("submit")
			vurb.Action(app, "doc.approve", noop).When(m, "pending").Fires("approve")
		}, []string{`has no workflow.Handle field`}},
		{"no handle in the input", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.submit", func(context.Context, struct{}) (string, error) { return "", nil }).When(m, "draft").Fires("submit")
			vurb.Action(app, "doc.approve", noop).When(m, "pending").Fires("approve")
		}, []string{`action "doc.submit" is bound to the workflow "review" and its input struct {} has no workflow.Handle field: add one (the model passes the handle doc.start returned), or key the machine by session (BySession)`}},
		{"a bad machine", func(app *vurb.App, _ *workflow.Machine) {
			m := workflow.New("bad name", "a").On("a", "go", "b").Final("b")
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.go", noop).When(m, "a").Fires("go")
		}, []string{`workflow "bad name": the name "bad name" holds " "`}},
		{"two machines of one name", func(app *vurb.App, m *workflow.Machine) {
			vurb.Action(app, "doc.start", start).Starts(m)
			vurb.Action(app, "doc.submit", noop).When(m, "draft").Fires("submit")
			vurb.Action(app, "doc.approve", noop).When(m, "pending").Fires("approve")
			vurb.Action(app, "doc.again", start).Starts(machine())
		}, []string{`two workflows are named "review": rename one`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			app := vurb.New()
			tc.bind(app, machine())
			msg := mustPanic(t, app.Build)
			for _, want := range tc.wants {
				if !strings.Contains(msg, want) {
					t.Errorf("the panic\n%s\ndoes not say\n%s", msg, want)
				}
			}
			is.True(msg != "")
		})
	}
}

// TestWorkflowBindsToOneMachine: binding an action to a second machine
// panics at once.
func TestWorkflowBindsToOneMachine(t *testing.T) {
	app := vurb.New()
	a := workflow.New("a", "s").On("s", "e", "f").Final("f")
	b := workflow.New("b", "s").On("s", "e", "f").Final("f")
	msg := mustPanic(t, func() {
		vurb.Action(app, "x", func(context.Context, cartIn) (string, error) { return "", nil }).When(a, "s").When(b, "s")
	})
	is.New(t).Equal(msg, `vurb: action "x" is bound to the workflows "a" and "b": an action belongs to one machine`)
}

// TestWorkflowInTheManifest: the manifest describes the machine and each
// action's place in it, and a removed transition is a breaking change.
func TestWorkflowInTheManifest(t *testing.T) {
	is := is.New(t)
	release := func(pay bool) manifest.Manifest {
		m := workflow.New("review", "draft").On("draft", "submit", "pending").Final("approved")
		if pay {
			m.On("pending", "approve", "approved")
		} else {
			m.On("pending", "reject", "approved")
		}
		app := vurb.New()
		vurb.Action(app, "doc.start", func(context.Context, struct{}) (cartOut, error) { return cartOut{}, nil }).Starts(m)
		vurb.Action(app, "doc.submit", func(context.Context, cartIn) (string, error) { return "", nil }).When(m, "draft").Fires("submit")
		vurb.Action(app, "doc.decide", func(context.Context, cartIn) (string, error) { return "", nil }).When(m, "pending").Fires(map[bool]string{true: "approve", false: "reject"}[pay])
		return manifest.Of(app.Model())
	}
	v1 := release(true)
	is.Equal(len(v1.Workflows), 1)
	is.Equal(v1.Workflows[0], manifest.Workflow{Name: "review", Initial: "draft", Keyed: "handle", Finals: []string{"approved"},
		Transitions: []manifest.Transition{{From: "draft", Event: "submit", To: "pending"}, {From: "pending", Event: "approve", To: "approved"}}})
	for _, a := range v1.Actions {
		if a.Key == "doc.submit" {
			is.Equal(*a.Workflow, manifest.Binding{Workflow: "review", States: []string{"draft"}, Fires: "submit"})
		}
	}
	changes := manifest.Diff(v1, release(false))
	is.True(manifest.Breaking(changes))
	kinds := map[manifest.Kind]bool{}
	for _, c := range changes {
		kinds[c.Kind] = true
	}
	is.True(kinds[manifest.TransitionRemoved]) // pending --approve--> approved
	is.True(kinds[manifest.GateNarrowed])      // doc.decide fires another event
}
