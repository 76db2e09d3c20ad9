package manifest

import (
	"slices"
	"strings"
)

// Normalize returns m in canonical form: every list sorted by name, key,
// URI or fully qualified name (prompt arguments keep their order, which a
// client shows), tags and groups sorted, schemas, annotations and _meta in
// canonical JSON. Of and Parse return normalized manifests.
func Normalize(m Manifest) Manifest {
	if m.Format == "" {
		m.Format = Format
	}
	m.Tools = normalizeTools(m.Tools)
	m.Actions = slices.Clone(m.Actions)
	for i := range m.Actions {
		a := &m.Actions[i]
		a.Tags, a.Groups, a.Invalidates = sorted(a.Tags), sorted(a.Groups), slices.Clone(a.Invalidates)
		a.InputSchema, a.OutputSchema = Canonical(a.InputSchema), Canonical(a.OutputSchema)
		a.Presentation = a.Presentation.normalized()
		a.Workflow = a.Workflow.normalized()
	}
	slices.SortFunc(m.Actions, func(x, y Action) int { return strings.Compare(x.Key, y.Key) })
	m.Prompts = slices.Clone(m.Prompts)
	for i := range m.Prompts {
		p := &m.Prompts[i]
		p.Meta, p.Groups = Canonical(p.Meta), sorted(p.Groups)
	}
	slices.SortFunc(m.Prompts, func(x, y Prompt) int { return strings.Compare(x.Name, y.Name) })
	m.Resources, m.ResourceTemplates = normalizeResources(m.Resources), normalizeResources(m.ResourceTemplates)
	m.Skills = normalizeSkills(m.Skills)
	m.Groups = slices.Clone(m.Groups)
	for i := range m.Groups {
		g := &m.Groups[i]
		g.Tags, g.Meta = sorted(g.Tags), Canonical(g.Meta)
	}
	slices.SortFunc(m.Groups, func(x, y Group) int { return strings.Compare(x.FQN, y.FQN) })
	m.Alternates = slices.Clone(m.Alternates)
	for i := range m.Alternates {
		m.Alternates[i].Tools = normalizeTools(m.Alternates[i].Tools)
	}
	slices.SortFunc(m.Alternates, func(x, y Exposition) int { return strings.Compare(x.Name, y.Name) })
	m.Workflows = normalizeWorkflows(m.Workflows)
	m.ServerCard = normalizedCard(m.ServerCard)
	return m
}

func normalizeTools(ts []Tool) []Tool {
	ts = slices.Clone(ts)
	if ts == nil {
		ts = []Tool{}
	}
	for i := range ts {
		t := &ts[i]
		t.InputSchema, t.OutputSchema, t.Meta = Canonical(t.InputSchema), Canonical(t.OutputSchema), Canonical(t.Meta)
		t.Actions, t.Groups = sorted(t.Actions), sorted(t.Groups)
	}
	slices.SortFunc(ts, func(x, y Tool) int { return strings.Compare(x.Name, y.Name) })
	return ts
}

func normalizeResources(rs []Resource) []Resource {
	rs = slices.Clone(rs)
	for i := range rs {
		r := &rs[i]
		r.Annotations, r.Meta, r.Groups = Canonical(r.Annotations), Canonical(r.Meta), sorted(r.Groups)
	}
	slices.SortFunc(rs, func(x, y Resource) int { return strings.Compare(x.id(), y.id()) })
	return rs
}
