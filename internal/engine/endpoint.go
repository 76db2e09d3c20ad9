package engine

import (
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/describe"
	"github.com/vurb-go/vurb/schema"
)

// Endpoint is one action, compiled: everything a call of it needs,
// computed once. Its fields are never written after newEndpoint.
type Endpoint struct {
	rt      *Runtime
	spec    *ActionSpec
	tool    string
	action  string
	key     string // canonical: tool.action
	name    string // wire name
	prefix  string // "[projects_list] ", before every error text: what the model called
	ref     string // how a model calls it: "projects_list", `projects with {"action":"list"}`
	decode  Decoder
	opts    schema.DecodeOptions
	handler Handler
	timeout time.Duration
	notice  string
	ann     *mcp.ToolAnnotations
	scopes  []string          // every one required of the caller's token (scope.go)
	limits  *limiter          // rate limits and slots (limits.go), or nil; shared by routed copies
	flow    *FlowSpec         // the workflow gate (gate.go), or nil
	moves   map[string]string // what a claim of flow reserves
}

func newEndpoint(rt *Runtime, tool string, a *ActionSpec) *Endpoint {
	ep := &Endpoint{
		rt:      rt,
		spec:    a,
		tool:    tool,
		action:  a.Key,
		key:     canonicalKey(tool, a.Key),
		prefix:  errorPrefix(tool, a.Key),
		decode:  a.Decode,
		opts:    rt.Decode,
		handler: a.Handler,
		timeout: a.Timeout,
		notice:  a.Sync.Notice,
		ann:     ownAnnotations(a),
		scopes:  a.Scopes,
		flow:    a.Flow,
	}
	if a.Flow != nil && a.Flow.Event != "" && !a.Flow.Starts {
		ep.moves = a.Flow.moves()
	}
	ep.setLimits(a.Limits)
	return ep
}

// routed returns a copy of ep for the wire tool name, reading skip as the
// discriminator. Routes are made once, at Compile. Its error texts start
// with what the model called: the wire name (flat), or the tool and the
// discriminator's value (grouped).
func (ep *Endpoint) routed(name, skip string) *Endpoint {
	c := *ep
	c.name, c.opts.Skip = name, skip
	c.prefix, c.ref = "["+name+"] ", name
	if skip != "" {
		c.prefix = "[" + name + " " + skip + "=" + ep.action + "] "
		c.ref = name + ` with {"` + skip + `":` + strconv.Quote(ep.action) + `}`
	}
	return &c
}

// Key is the endpoint's canonical dotted key ("projects.list").
func (ep *Endpoint) Key() string { return ep.key }

// Tags are the action's tags, its group's and its tool's. Shared: do not
// modify.
func (ep *Endpoint) Tags() []string { return ep.spec.Tags }

// canonicalKey is tool.action, or the tool's name for a tool that is one
// action (the empty key).
func canonicalKey(tool, action string) string {
	if action == "" {
		return tool
	}
	return tool + "." + action
}

// errorPrefix opens every error text of an unrouted action: "[tool/action] ", or
// "[tool] " for a tool that is one action.
func errorPrefix(tool, action string) string {
	if action == "" {
		return "[" + tool + "] "
	}
	return "[" + tool + "/" + action + "] "
}

// Spec is the action as the definition layer lowered it. Shared: do not
// modify.
func (ep *Endpoint) Spec() *ActionSpec { return ep.spec }

// Annotations are the action's own annotations: the explicit ones when it
// set them, else those its kind implies. Shared: do not modify.
func (ep *Endpoint) Annotations() *mcp.ToolAnnotations { return ep.ann }

// ownAnnotations are the action's explicit annotations, else those its kind
// implies: what it says of itself, whatever its exposition merges.
func ownAnnotations(a *ActionSpec) *mcp.ToolAnnotations {
	if a.Annotations != nil {
		return a.Annotations
	}
	return describe.ForAction(describe.Action{Key: a.Key, ReadOnly: a.ReadOnly, Destructive: a.Destructive,
		Idempotent: a.Idempotent, OpenWorld: a.OpenWorld})
}
