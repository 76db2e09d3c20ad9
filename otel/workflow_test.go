package vurbotel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
	"github.com/vurb-go/vurb/workflow"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

type ticket struct {
	Ticket workflow.Handle `json:"ticket" validate:"required" description:"The ticket's handle"`
}

// A workflow's moves are counted by machine and states, and each is an
// event on the span of the tool call that made it.
func TestWorkflowMovesAreRecorded(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	m := workflow.New("support", "open").On("open", "close", "closed").Final("closed")
	app := vurb.New(tel.options()...)
	vurb.Action(app, "tickets.open", func(ctx context.Context, _ struct{}) (ticket, error) {
		run, _ := workflow.From(ctx)
		return ticket{Ticket: run.Handle()}, nil
	}).Starts(m)
	vurb.Action(app, "tickets.close", func(context.Context, ticket) (string, error) { return "closed", nil }).When(m, "open").Fires("close")
	c := vurbtest.New(t, app)
	var opened ticket
	is.NoErr(json.Unmarshal([]byte(c.CallText("tickets_open", json.RawMessage(`{}`))), &opened))
	raw, _ := json.Marshal(opened)
	args := json.RawMessage(raw)
	is.Equal(c.CallText("tickets_close", args), "closed")
	c.CallError("tickets_close", args) // refused: no move

	points := tel.collect(t)["vurb.server.workflow.moves"].Data.(metricdata.Sum[int64]).DataPoints
	is.Equal(len(points), 2)
	moves := map[string]int64{}
	for _, p := range points {
		from, _ := p.Attributes.Value("vurb.workflow.from")
		to, _ := p.Attributes.Value("vurb.workflow.to")
		name, _ := p.Attributes.Value("vurb.workflow.name")
		is.Equal(name.AsString(), "support")
		moves[from.AsString()+">"+to.AsString()] = p.Value
	}
	is.Equal(moves, map[string]int64{">open": 1, "open>closed": 1})

	spans := tel.spansNamed(t, "tools/call tickets_close", 2)
	var events int
	for _, s := range spans {
		for _, e := range s.Events() {
			if e.Name == "vurb.workflow.moved" {
				events++
				a := attrs(e.Attributes)
				is.Equal(a["vurb.workflow.from"], "open")
				is.Equal(a["vurb.workflow.to"], "closed")
			}
		}
	}
	is.Equal(events, 1) // the refused call moved nothing
}
