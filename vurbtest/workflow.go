package vurbtest

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/workflow"
)

// Flow drives one instance of a workflow (package workflow) as a model
// would: the handle a starting call returned is passed to each call, and
// the state each answer reports is kept for the test to assert.
type Flow struct {
	c      *Client
	field  string
	handle workflow.Handle
	state  string
}

// StartFlow calls the starting tool called name with args, as CallText
// does, and returns the instance it started. The handle is the one
// workflow.Handle value of its structured result (the test fails when
// there is none, or more than one), and the calls of the Flow pass it
// under the same field name (As names another). A workflow keyed by
// session has no handle: drive it with the Client's own calls.
func (c *Client) StartFlow(name string, args any, opts ...CallOption) *Flow {
	c.t.Helper()
	res := c.succeed(name, args, opts)
	f := &Flow{c: c}
	out, _ := res.StructuredContent.(map[string]any)
	var fields []string
	for k, v := range out {
		if s, ok := v.(string); ok && strings.HasPrefix(s, "wf1.") {
			f.field, f.handle = k, workflow.Handle(s)
			fields = append(fields, k)
		}
	}
	if len(fields) > 1 {
		slices.Sort(fields)
		c.t.Fatalf("vurbtest: %s returned %d workflow handles (%s): StartFlow drives one; call it with CallResult and read the one you mean", c.describe(name, args), len(fields), strings.Join(fields, ", "))
	}
	if f.handle == "" {
		c.t.Fatalf("vurbtest: %s returned no workflow handle in its structured result: does it start a workflow, and return workflow.From(ctx).Handle() in a workflow.Handle field?", c.describe(name, args))
	}
	f.state = stateOf(res)
	return f
}

// As returns the flow passing its handle under field instead.
func (f *Flow) As(field string) *Flow {
	c := *f
	c.field = field
	return &c
}

// Handle returns the instance's handle.
func (f *Flow) Handle() workflow.Handle { return f.handle }

// State returns the state the last answer reported: where the last
// successful call left the instance, or where the last refused one found
// it.
func (f *Flow) State() string { return f.state }

// Call calls the tool called name with args (a map, or nil) and the
// handle, and returns its text; it fails the test unless the call
// succeeds.
func (f *Flow) Call(name string, args map[string]any, opts ...CallOption) string {
	f.c.t.Helper()
	res := f.c.succeed(name, f.args(args), opts)
	f.state = stateOf(res)
	return Text(res)
}

// Refused calls the tool called name with args and the handle, for a test
// that expects the workflow gate to refuse it: it returns the text the
// model reads and the actions the refusal offers as the way on (how the
// model calls each), and fails the test when the call succeeds or is
// refused by anything but the gate.
func (f *Flow) Refused(name string, args map[string]any, opts ...CallOption) (text string, allowed []string) {
	f.c.t.Helper()
	res, err := f.c.CallResult(name, f.args(args), opts...)
	switch {
	case err != nil:
		f.c.t.Fatalf("vurbtest: %s: protocol error %v; want a refusal of the workflow gate", f.c.describe(name, args), err)
	case !res.IsError:
		f.c.t.Fatalf("vurbtest: %s succeeded with %q; want a refusal of the workflow gate", f.c.describe(name, args), Text(res))
	case res.Meta[engine.MetaWorkflow] == nil:
		f.c.t.Fatalf("vurbtest: %s was refused, not by the workflow gate: %s", f.c.describe(name, args), Text(res))
	}
	if s := stateOf(res); s != "" {
		f.state = s
	}
	w, _ := res.Meta[engine.MetaWorkflow].(map[string]any)
	list, _ := w["allowed"].([]any)
	for _, a := range list {
		if s, ok := a.(string); ok {
			allowed = append(allowed, s)
		}
	}
	return Text(res), allowed
}

func (f *Flow) args(args map[string]any) json.RawMessage {
	all := maps.Clone(args)
	if all == nil {
		all = map[string]any{}
	}
	all[f.field] = f.handle
	data, err := json.Marshal(all)
	if err != nil {
		f.c.t.Fatalf("vurbtest: encoding %v: %v", args, err)
	}
	return data
}

// stateOf is the state a gated result reports, "" for none.
func stateOf(res *mcp.CallToolResult) string {
	w, _ := res.Meta[engine.MetaWorkflow].(map[string]any)
	s, _ := w["state"].(string)
	return s
}
