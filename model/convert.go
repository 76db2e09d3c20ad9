package model

import (
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The converters translate each primitive to and from the go-sdk's wire
// type. From-wire converters make a standalone entity (no model, no
// parents); to-wire converters read any entity, standalone or part of a
// model. Each returns nil for nil, and converting to the wire and back
// loses nothing the wire type holds: for every w,
// ToolToWire(ToolFromWire(w)) marshals to the same JSON as w. Schemas come
// back as json.RawMessage, which the go-sdk accepts on both sides.
//
// The batch forms convert a slice and drop the nils, both those given and
// those a converter returns (ResourcesToWire skips templates, which are not
// *mcp.Resource; TemplatesToWire skips static resources).

// ToolFromWire converts a wire tool into a standalone Tool.
func ToolFromWire(w *mcp.Tool) *Tool {
	if w == nil {
		return nil
	}
	t := fromWireTool(w)
	t.path = []string{t.name}
	return t
}

func fromWireTool(w *mcp.Tool) *Tool {
	return &Tool{
		entity:      newEntity(Info{Name: w.Name, Title: w.Title, Description: w.Description, Meta: w.Meta, Icons: w.Icons}),
		input:       schemaJSON(w.InputSchema),
		output:      schemaJSON(w.OutputSchema),
		annotations: AnnotationsFromWire(w.Annotations),
	}
}

// ToolToWire converts a tool to its wire form.
func ToolToWire(t *Tool) *mcp.Tool {
	if t == nil {
		return nil
	}
	w := &mcp.Tool{
		Meta:        t.Meta(),
		Name:        t.name,
		Title:       t.title,
		Description: t.description,
		Annotations: AnnotationsToWire(t.annotations),
		Icons:       t.Icons(),
	}
	if t.input != nil {
		w.InputSchema = json.RawMessage(slices.Clone(t.input))
	}
	if t.output != nil {
		w.OutputSchema = json.RawMessage(slices.Clone(t.output))
	}
	return w
}

// PromptFromWire converts a wire prompt into a standalone Prompt.
func PromptFromWire(w *mcp.Prompt) *Prompt {
	if w == nil {
		return nil
	}
	p := &Prompt{entity: newEntity(Info{Name: w.Name, Title: w.Title, Description: w.Description, Meta: w.Meta, Icons: w.Icons})}
	if w.Arguments != nil {
		p.arguments = PromptArgumentsFromWire(w.Arguments)
		if p.arguments == nil {
			p.arguments = []*PromptArgument{}
		}
	}
	return p
}

// PromptToWire converts a prompt to its wire form.
func PromptToWire(p *Prompt) *mcp.Prompt {
	if p == nil {
		return nil
	}
	w := &mcp.Prompt{Meta: p.Meta(), Name: p.name, Title: p.title, Description: p.description, Icons: p.Icons()}
	if p.arguments != nil {
		w.Arguments = PromptArgumentsToWire(p.arguments)
		if w.Arguments == nil {
			w.Arguments = []*mcp.PromptArgument{}
		}
	}
	return w
}

// PromptArgumentFromWire converts a wire prompt argument.
func PromptArgumentFromWire(w *mcp.PromptArgument) *PromptArgument {
	if w == nil {
		return nil
	}
	return &PromptArgument{entity: newEntity(Info{Name: w.Name, Title: w.Title, Description: w.Description}), required: w.Required}
}

// PromptArgumentToWire converts a prompt argument to its wire form.
func PromptArgumentToWire(a *PromptArgument) *mcp.PromptArgument {
	if a == nil {
		return nil
	}
	return &mcp.PromptArgument{Name: a.name, Title: a.title, Description: a.description, Required: a.required}
}

// ResourceFromWire converts a wire resource into a standalone Resource.
func ResourceFromWire(w *mcp.Resource) *Resource {
	if w == nil {
		return nil
	}
	return &Resource{
		entity:      newEntity(Info{Name: w.Name, Title: w.Title, Description: w.Description, Meta: w.Meta, Icons: w.Icons}),
		uri:         w.URI,
		mimeType:    w.MIMEType,
		size:        w.Size,
		annotations: copyResourceAnnotations(w.Annotations),
	}
}

// ResourceToWire converts a static resource to its wire form; it returns
// nil for a template (see TemplateToWire).
func ResourceToWire(r *Resource) *mcp.Resource {
	if r == nil || r.template {
		return nil
	}
	return &mcp.Resource{
		Meta:        r.Meta(),
		Annotations: r.Annotations(),
		Description: r.description,
		MIMEType:    r.mimeType,
		Name:        r.name,
		Size:        r.size,
		Title:       r.title,
		URI:         r.uri,
		Icons:       r.Icons(),
	}
}

// TemplateFromWire converts a wire resource template into a standalone
// Resource whose IsTemplate is true.
func TemplateFromWire(w *mcp.ResourceTemplate) *Resource {
	if w == nil {
		return nil
	}
	return &Resource{
		entity:      newEntity(Info{Name: w.Name, Title: w.Title, Description: w.Description, Meta: w.Meta, Icons: w.Icons}),
		uri:         w.URITemplate,
		template:    true,
		mimeType:    w.MIMEType,
		annotations: copyResourceAnnotations(w.Annotations),
	}
}

// TemplateToWire converts a resource template to its wire form; it returns
// nil for a static resource (see ResourceToWire).
func TemplateToWire(r *Resource) *mcp.ResourceTemplate {
	if r == nil || !r.template {
		return nil
	}
	return &mcp.ResourceTemplate{
		Meta:        r.Meta(),
		Annotations: r.Annotations(),
		Description: r.description,
		MIMEType:    r.mimeType,
		Name:        r.name,
		Title:       r.title,
		URITemplate: r.uri,
		Icons:       r.Icons(),
	}
}

// ToolsFromWire converts wire tools, dropping nils.
func ToolsFromWire(ws []*mcp.Tool) []*Tool { return batch(ws, ToolFromWire) }

// ToolsToWire converts tools to their wire form, dropping nils.
func ToolsToWire(ts []*Tool) []*mcp.Tool { return batch(ts, ToolToWire) }

// PromptsFromWire converts wire prompts, dropping nils.
func PromptsFromWire(ws []*mcp.Prompt) []*Prompt { return batch(ws, PromptFromWire) }

// PromptsToWire converts prompts to their wire form, dropping nils.
func PromptsToWire(ps []*Prompt) []*mcp.Prompt { return batch(ps, PromptToWire) }

// PromptArgumentsFromWire converts wire prompt arguments, dropping nils.
func PromptArgumentsFromWire(ws []*mcp.PromptArgument) []*PromptArgument {
	return batch(ws, PromptArgumentFromWire)
}

// PromptArgumentsToWire converts prompt arguments, dropping nils.
func PromptArgumentsToWire(as []*PromptArgument) []*mcp.PromptArgument {
	return batch(as, PromptArgumentToWire)
}

// ResourcesFromWire converts wire resources, dropping nils.
func ResourcesFromWire(ws []*mcp.Resource) []*Resource { return batch(ws, ResourceFromWire) }

// ResourcesToWire converts the static resources among rs, dropping nils
// and templates.
func ResourcesToWire(rs []*Resource) []*mcp.Resource { return batch(rs, ResourceToWire) }

// TemplatesFromWire converts wire resource templates, dropping nils.
func TemplatesFromWire(ws []*mcp.ResourceTemplate) []*Resource { return batch(ws, TemplateFromWire) }

// TemplatesToWire converts the templates among rs, dropping nils and
// static resources.
func TemplatesToWire(rs []*Resource) []*mcp.ResourceTemplate { return batch(rs, TemplateToWire) }

// batch converts each element of in that is not nil and keeps the results
// that are not nil. It returns nil when nothing is left.
func batch[S, T any](in []*S, convert func(*S) *T) []*T {
	var out []*T
	for _, s := range in {
		if s == nil {
			continue
		}
		if t := convert(s); t != nil {
			out = append(out, t)
		}
	}
	return out
}
