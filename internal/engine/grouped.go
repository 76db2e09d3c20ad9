package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/describe"
	"github.com/vurb-go/vurb/internal/suggest"
	"github.com/vurb-go/vurb/schema"
)

// Grouped exposes one wire tool per tool: a discriminator field chooses
// the action, and the merged schema says which actions need which field.
type Grouped struct{}

// String returns "grouped".
func (Grouped) String() string { return "grouped" }

// Expose makes one route of all the endpoints.
func (Grouped) Expose(t *ToolSpec, eps []*Endpoint, env Env) []Route {
	if len(eps) == 1 && eps[0].action == "" {
		// A tool that is one action has no action to choose: it is listed
		// as in flat exposition, under the tool's name.
		return Flat{}.Expose(t, eps, env)
	}
	mustWireName(t.Name, t.Name)
	disc := t.Discriminator
	infos := make([]describe.Action, len(eps))
	members := make([]schema.Member, len(eps))
	keys := make([]string, len(eps))
	r := &groupedRoute{rt: env.Runtime, tool: t.Name, discriminator: disc,
		eps: make([]*Endpoint, len(eps)), actions: make(map[string]*Endpoint, len(eps))}
	for i, ep := range eps {
		infos[i] = describeAction(ep.spec)
		infos[i].Key = ep.action
		// The action's description is in the tool's description already.
		members[i] = schema.Member{Key: ep.action, Codec: ep.spec.In}
		keys[i] = ep.action
		r.eps[i] = ep.routed(t.Name, disc)
		r.actions[ep.action] = r.eps[i]
	}
	r.available = strings.Join(keys, ", ")
	headers := map[string]string{}
	for _, ep := range eps {
		for field, h := range ep.spec.Headers {
			if other, ok := headers[field]; ok && other != h {
				panic(fmt.Sprintf("vurb: tool %q: field %q is mirrored into header %q by one action and %q by another; "+
					"grouped exposition lists the field once, so they must agree", t.Name, field, other, h))
			}
			headers[field] = h
		}
	}
	ann := t.Annotations
	if ann == nil {
		ann = describe.Aggregate(infos)
	}
	r.wire = &mcp.Tool{
		Name:        t.Name,
		Description: groupedDescription(t, infos, agreedCache(eps), env.Runtime.Describer.OrDefault()),
		InputSchema: withHeaders(schema.Merge(disc, t.Common, members, env.Runtime.Decode.Messages), headers),
		Annotations: ann,
	}
	if out := agreedOutput(eps); out != nil {
		r.wire.OutputSchema = out
	}
	return []Route{r}
}

// groupedDescription is the Markdown or, when the tool asks, TOON
// description of a grouped tool, written by the app's Describer.
func groupedDescription(t *ToolSpec, infos []describe.Action, cache string, d describe.Describer) string {
	groups := make([]describe.Group, len(t.Groups))
	for i, g := range t.Groups {
		groups[i] = describe.Group{Name: g.Name, Description: g.Description}
	}
	tool := describe.Tool{Name: t.Name, Description: t.Description, Groups: groups, Actions: infos, Cache: cache}
	if t.TOONDescription {
		text, err := d.TOON(tool)
		if err != nil {
			panic(fmt.Sprintf("vurb: tool %q: its TOON description failed: %v", t.Name, err))
		}
		return text
	}
	return d.Grouped(tool)
}

// agreedOutput is the output schema of a grouped tool: MCP gives a tool one,
// and a tool that declares one must return structured content that
// conforms to it on every call. So it is the actions' schema when every
// action declares the same one, and none otherwise: an action that returns
// text or another type would break any schema the tool declared, and a
// union (anyOf of the actions' schemas) would not tell a client which
// action returns which shape. The actions' structured content is sent all
// the same.
func agreedOutput(eps []*Endpoint) json.RawMessage {
	first := eps[0].spec.OutputSchema
	if first == nil {
		return nil
	}
	for _, ep := range eps[1:] {
		if !bytes.Equal(ep.spec.OutputSchema, first) {
			return nil
		}
	}
	return first
}

// groupedRoute is the wire tool of a whole tool: a discriminated set of
// endpoints.
type groupedRoute struct {
	rt            *Runtime
	wire          *mcp.Tool
	tool          string
	discriminator string
	eps           []*Endpoint
	actions       map[string]*Endpoint
	available     string // "list, create, delete", for error texts
}

func (r *groupedRoute) Wire() *mcp.Tool        { return r.wire }
func (r *groupedRoute) Endpoints() []*Endpoint { return r.eps }

// Call picks the endpoint by the discriminator and runs it.
func (r *groupedRoute) Call(ctx context.Context, args json.RawMessage, o *Origin) (*mcp.CallToolResult, error) {
	ep, res := r.pick(args, o)
	if res != nil {
		return res, nil
	}
	return ep.call(ctx, args, o)
}

// pick reads the discriminator without decoding the rest of the arguments.
func (r *groupedRoute) pick(args json.RawMessage, o *Origin) (*Endpoint, *mcp.CallToolResult) {
	m := &r.rt.Messages
	available := r.available
	if o != nil && o.HideUnscoped {
		available = r.availableTo(o)
	}
	raw, found, err := schema.Lookup(args, r.discriminator, r.rt.Decode)
	switch {
	case err != nil:
		return nil, ErrorResult("[" + r.tool + "] " + fmt.Sprintf(m.InvalidArguments, err))
	case !found:
		return nil, ErrorResult(fmt.Sprintf(m.DiscriminatorMissing, r.discriminator, available))
	case len(raw) == 0 || raw[0] != '"':
		return nil, ErrorResult(fmt.Sprintf(m.DiscriminatorNotString, r.discriminator, jsonKind(raw), available))
	}
	if ep, ok := r.actions[string(raw[1:len(raw)-1])]; ok {
		return ep, nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		if ep, ok := r.actions[name]; ok { // the key was sent with escapes
			return ep, nil
		}
	}
	msg := fmt.Sprintf(m.UnknownAction, Truncate(name, 64), available)
	if guess := r.guess(name, available); guess != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", guess)
	}
	return nil, ErrorResult(msg)
}

// guess is the action among available ("list, users.get") a model most
// likely meant by name: the one it names without its group ("get" for
// "users.get"), or one a typo away; "" when none is plausible.
func (r *groupedRoute) guess(name, available string) string {
	if name == "" {
		return ""
	}
	keys := strings.Split(available, ", ")
	for _, k := range keys {
		if strings.EqualFold(k, name) || strings.HasSuffix(strings.ToLower(k), "."+strings.ToLower(name)) {
			return k
		}
	}
	return suggest.Closest(name, keys)
}

// availableTo lists the actions the caller of o is shown: those its
// token has the scopes for.
func (r *groupedRoute) availableTo(o *Origin) string {
	var names []string
	for _, ep := range r.eps {
		if Missing(ep.scopes, o.Token) == nil {
			names = append(names, ep.action)
		}
	}
	return strings.Join(names, ", ")
}

// jsonKind names the JSON kind of a raw value, for error texts.
func jsonKind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}
