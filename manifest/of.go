package manifest

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/model"
)

// Of writes down the model m. Fully qualified names are joined by dots
// whatever m's separator, so the manifest of an app does not depend on
// how it was looked at.
func Of(m *model.Model) Manifest {
	s := m.Server()
	out := Manifest{
		Format:     Format,
		Server:     Server{Name: s.Name, Title: s.Title, Version: s.Version, Instructions: s.Instructions},
		Exposition: m.Exposition(),
		Tools:      toolsOf(m.Tools()),
	}
	for _, a := range m.Actions() {
		ann := annotationsOf(new(a.Annotations()))
		sync := a.Sync()
		out.Actions = append(out.Actions, Action{
			Key: a.Key(), Title: a.Title(), Description: a.Description(), Tags: a.Tags(), Annotations: ann,
			InputSchema: a.InputSchema(), OutputSchema: a.OutputSchema(), Cache: sync.Cache, Invalidates: sync.Invalidates,
			Auth: authOf(nil, a.Scopes()), Groups: groupsOf(a.Parents()), Task: taskOf(a.Task()),
			Presentation: presentationOf(a.Presentation()),
		})
	}
	workflowsOf(m, &out)
	for _, p := range m.Prompts() {
		mp := Prompt{Name: p.Name(), Title: p.Title(), Description: p.Description(), Meta: canonicalValue(p.Meta()),
			Icons: iconsOf(p), Groups: groupsOf(p.Parents())}
		for _, arg := range p.Arguments() {
			mp.Arguments = append(mp.Arguments, Argument{Name: arg.Name(), Title: arg.Title(), Description: arg.Description(), Required: arg.Required()})
		}
		out.Prompts = append(out.Prompts, mp)
	}
	for _, r := range m.Resources() {
		mr := Resource{Name: r.Name(), Title: r.Title(), Description: r.Description(), MIMEType: r.MIMEType(), Size: r.Size(),
			Annotations: canonicalValue(r.Annotations()), Meta: canonicalValue(r.Meta()), Icons: iconsOf(r), Groups: groupsOf(r.Parents())}
		if r.IsTemplate() {
			mr.URITemplate = r.URI()
			out.ResourceTemplates = append(out.ResourceTemplates, mr)
		} else {
			mr.URI = r.URI()
			out.Resources = append(out.Resources, mr)
		}
	}
	for _, g := range m.AllGroups() {
		out.Groups = append(out.Groups, Group{FQN: dotted(g.Path()), Kind: g.Kind().String(), Title: g.Title(),
			Description: g.Description(), Tags: g.Tags(), Meta: canonicalValue(g.Meta()), Icons: iconsOf(g)})
	}
	for _, e := range m.Expositions() {
		if e != m.Exposition() {
			out.Alternates = append(out.Alternates, Exposition{Name: e, Tools: toolsOf(m.ToolsIn(e))})
		}
	}
	return Normalize(out)
}

func toolsOf(ts []*model.Tool) []Tool {
	out := make([]Tool, 0, len(ts))
	for _, t := range ts {
		var keys []string
		for _, a := range t.Actions() {
			keys = append(keys, a.Key())
		}
		meta := t.Meta()
		out = append(out, Tool{
			Name: t.Name(), Title: t.Title(), Description: t.Description(),
			InputSchema: t.InputSchema(), OutputSchema: t.OutputSchema(),
			Annotations: annotationsOf(t.Annotations()), Auth: toolAuth(meta, t.Actions()),
			Meta: canonicalValue(meta), Icons: iconsOf(t), Actions: keys, Groups: groupsOf(t.Parents()),
		})
	}
	return out
}

// toolAuth is a tool's auth: its actions' when it has some (open when
// one of them is), else what its _meta declares.
func toolAuth(meta map[string]any, actions []*model.Action) *Auth {
	if len(actions) == 0 {
		return authOf(meta, nil)
	}
	var scopes []string
	for _, a := range actions {
		if len(a.Scopes()) == 0 {
			return nil
		}
		scopes = append(scopes, a.Scopes()...)
	}
	return authOf(nil, scopes)
}

func annotationsOf(a *model.Annotations) *Annotations {
	w := model.AnnotationsToWire(a)
	if w == nil {
		return nil
	}
	return &Annotations{Title: w.Title, ReadOnlyHint: w.ReadOnlyHint, DestructiveHint: w.DestructiveHint,
		IdempotentHint: w.IdempotentHint, OpenWorldHint: w.OpenWorldHint}
}

func iconsOf(e interface{ Icons() []mcp.Icon }) []Icon {
	var out []Icon
	for _, ic := range e.Icons() {
		out = append(out, Icon{Src: ic.Source, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: string(ic.Theme)})
	}
	return out
}

func groupsOf(gs []*model.Group) []string {
	var out []string
	for _, g := range gs {
		out = append(out, dotted(g.Path()))
	}
	return out
}

func dotted(path []string) string { return strings.Join(path, ".") }

// taskOf is the manifest's record of how an action runs as a task.
func taskOf(t *model.Task) *Task {
	if t == nil {
		return nil
	}
	return &Task{Required: t.Required}
}
