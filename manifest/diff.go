package manifest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Change is one difference between two manifests.
type Change struct {
	Kind Kind `json:"kind"`
	// Breaking is true when clients written against the old manifest may
	// fail against the new one.
	Breaking bool `json:"breaking"`
	// Path locates the change: tools/projects_create/input/name,
	// prompts/review/arguments/code, resources/file:///readme.
	Path string `json:"path"`
	// Reason says in one line what changed and why it matters.
	Reason string `json:"reason"`
}

// String is the change as the vurb command prints it, on one line. The
// path and reason hold the server's names and values, so they are made
// Visible: a name holding escape sequences cannot erase or rewrite the
// line, or the one before it, in a terminal.
func (c Change) String() string {
	sev := "compatible"
	if c.Breaking {
		sev = "BREAKING"
	}
	return fmt.Sprintf("%-10s  %s: %s", sev, Visible(c.Path), Visible(c.Reason))
}

// Breaking reports whether any change breaks clients.
func Breaking(changes []Change) bool {
	return slices.ContainsFunc(changes, func(c Change) bool { return c.Breaking })
}

// Diff classifies every change from old to new, sorted by path: tools,
// their schemas, annotations and auth; a vurb app's actions (their
// schemas only when either side is grouped: in flat exposition each
// action's tool already says it; how they run as tasks always, since no
// tool says it); prompts and their arguments; resources and templates;
// skills (skill.go); groups; the instructions and the exposition.
//
// A change is compatible only when every client of old still works with
// new: for an input schema, every call old accepts, new accepts too.
// What Diff cannot judge (a pattern changed, a keyword it does not read)
// it calls breaking, for a person to review.
func Diff(old, new Manifest) []Change {
	old, new = Normalize(old), Normalize(new)
	var d differ
	if old.Exposition != new.Exposition && old.Exposition != "" && new.Exposition != "" {
		d.add(ExpositionChanged, false, "exposition", "tools were listed %s and are now listed %s: every tool changes", old.Exposition, new.Exposition)
	}
	if old.Server.Instructions != new.Server.Instructions {
		d.add(DescriptionChanged, false, "server/instructions", "the instructions changed")
	}
	pair(old.Tools, new.Tools, func(t Tool) string { return t.Name },
		func(t Tool) { d.add(ToolRemoved, true, "tools/"+t.Name, "tool removed: calls to it will fail") },
		func(t Tool) { d.add(ToolAdded, false, "tools/"+t.Name, "new tool") },
		func(a, b Tool) { d.tool("tools/"+a.Name, a, b) })
	bothFlat := old.Exposition == "flat" && new.Exposition == "flat"
	pair(old.Actions, new.Actions, func(a Action) string { return a.Key },
		func(a Action) { d.add(ActionRemoved, true, "actions/"+a.Key, "action removed: calls to it will fail") },
		func(a Action) { d.add(ActionAdded, false, "actions/"+a.Key, "new action") },
		func(a, b Action) {
			// The wire does not show tasks: in flat exposition too, only
			// the action says it.
			d.task("actions/"+a.Key, a.Task, b.Task)
			d.presentation("actions/"+a.Key, a.Presentation, b.Presentation)
			d.binding("actions/"+a.Key, a.Workflow, b.Workflow) // workflow.go
			if !bothFlat {
				d.action("actions/"+a.Key, a, b)
			}
		})
	pair(old.Prompts, new.Prompts, func(p Prompt) string { return p.Name },
		func(p Prompt) { d.add(PromptRemoved, true, "prompts/"+p.Name, "prompt removed: getting it will fail") },
		func(p Prompt) { d.add(PromptAdded, false, "prompts/"+p.Name, "new prompt") },
		func(a, b Prompt) { d.prompt("prompts/"+a.Name, a, b) })
	for _, rs := range [][2][]Resource{{old.Resources, new.Resources}, {old.ResourceTemplates, new.ResourceTemplates}} {
		pair(rs[0], rs[1], Resource.id,
			func(r Resource) {
				d.add(ResourceRemoved, true, "resources/"+r.id(), "resource removed: reading it will fail")
			},
			func(r Resource) { d.add(ResourceAdded, false, "resources/"+r.id(), "new resource") },
			func(a, b Resource) { d.resource("resources/"+a.id(), a, b) })
	}
	d.skills(old.Skills, new.Skills)
	d.workflows(old.Workflows, new.Workflows)
	d.serverCard(old.ServerCard, new.ServerCard) // card.go
	pair(old.Groups, new.Groups, func(g Group) string { return g.FQN },
		func(g Group) { d.add(GroupRemoved, false, "groups/"+g.FQN, "%s removed from the model", g.Kind) },
		func(g Group) { d.add(GroupAdded, false, "groups/"+g.FQN, "new %s", g.Kind) },
		func(a, b Group) {})
	slices.SortStableFunc(d.out, func(x, y Change) int {
		return cmp.Or(strings.Compare(x.Path, y.Path), strings.Compare(string(x.Kind), string(y.Kind)))
	})
	return d.out
}

// pair walks two lists sorted by key, calling removed, added or both.
func pair[T any](old, new []T, key func(T) string, removed, added func(T), both func(a, b T)) {
	byKey := make(map[string]T, len(new))
	for _, n := range new {
		byKey[key(n)] = n
	}
	seen := make(map[string]bool, len(old))
	for _, o := range old {
		seen[key(o)] = true
		if n, ok := byKey[key(o)]; ok {
			both(o, n)
		} else {
			removed(o)
		}
	}
	for _, n := range new {
		if !seen[key(n)] {
			added(n)
		}
	}
}

// differ collects changes.
type differ struct{ out []Change }

func (d *differ) add(k Kind, breaking bool, path, format string, args ...any) {
	d.out = append(d.out, Change{Kind: k, Breaking: breaking, Path: path, Reason: fmt.Sprintf(format, args...)})
}

func (d *differ) tool(path string, a, b Tool) {
	d.texts(path, a.Title, b.Title, a.Description, b.Description)
	d.schema(path+"/input", a.InputSchema, b.InputSchema, input)
	d.output(path, a.OutputSchema, b.OutputSchema)
	d.annotations(path, a.Annotations, b.Annotations)
	d.auth(path, a.Auth, b.Auth)
	if !bytes.Equal(a.Meta, b.Meta) || !slices.EqualFunc(a.Icons, b.Icons, iconEqual) {
		d.add(MetaChanged, false, path, "_meta or icons changed")
	}
}

func (d *differ) action(path string, a, b Action) {
	d.texts(path, a.Title, b.Title, a.Description, b.Description)
	d.schema(path+"/input", a.InputSchema, b.InputSchema, input)
	d.output(path, a.OutputSchema, b.OutputSchema)
	d.annotations(path, a.Annotations, b.Annotations)
	d.auth(path, a.Auth, b.Auth)
}

func (d *differ) texts(path, oldTitle, newTitle, oldDesc, newDesc string) {
	if oldTitle != newTitle {
		d.add(TitleChanged, false, path+"/title", "title changed from %q to %q", oldTitle, newTitle)
	}
	if oldDesc != newDesc {
		d.add(DescriptionChanged, false, path+"/description", "description changed: what a model reads about it is new")
	}
}

func (d *differ) output(path string, a, b json.RawMessage) {
	switch {
	case a != nil && b == nil:
		d.add(OutputRemoved, true, path+"/output", "output schema removed: clients reading structured content lose it")
	case a == nil && b != nil:
		d.add(OutputAdded, false, path+"/output", "new output schema")
	case a != nil:
		d.schema(path+"/output", a, b, output)
	}
}

// annotations compares hints. Clients act on two of them without asking
// the user: they run read-only tools freely and ask before destructive
// ones, so a tool that starts writing or destroying breaks that trust.
func (d *differ) annotations(path string, a, b *Annotations) {
	if a.Destructive() != b.Destructive() {
		if b.Destructive() {
			d.add(BecameDestructive, true, path+"/annotations", "now destructive: clients that ran it without asking must ask")
		} else {
			d.add(AnnotationChanged, false, path+"/annotations", "no longer destructive")
		}
		return
	}
	if a.readOnly() && !b.readOnly() {
		d.add(BecameWriting, true, path+"/annotations", "no longer read-only, it now writes: clients that ran it without asking must ask")
		return
	}
	if canonicalValue(a) == nil && canonicalValue(b) == nil || bytes.Equal(canonicalValue(a), canonicalValue(b)) {
		return
	}
	d.add(AnnotationChanged, false, path+"/annotations", "annotations changed from %s to %s", canonicalValue(a), canonicalValue(b))
}

func (d *differ) auth(path string, a, b *Auth) {
	switch {
	case a.ScopeFree() && !b.ScopeFree():
		d.add(ScopeFreeRemoved, true, path+"/auth", "scope-free access removed: callers now need %s", strings.Join(b.Scopes, ", "))
	case !a.ScopeFree() && b.ScopeFree():
		d.add(ScopesRemoved, false, path+"/auth", "no scope needed any more")
	case !a.ScopeFree():
		if added := minus(b.Scopes, a.Scopes); len(added) > 0 {
			d.add(ScopesAdded, true, path+"/auth", "callers now also need %s", strings.Join(added, ", "))
		}
		if removed := minus(a.Scopes, b.Scopes); len(removed) > 0 {
			d.add(ScopesRemoved, false, path+"/auth", "callers no longer need %s", strings.Join(removed, ", "))
		}
	case (a == nil || !a.Required) && b != nil && b.Required:
		d.add(ScopeFreeRemoved, true, path+"/auth", "anonymous access removed: callers must now be authorized")
	case a != nil && a.Required && (b == nil || !b.Required):
		d.add(ScopesRemoved, false, path+"/auth", "anonymous callers are now accepted")
	}
}

func (d *differ) prompt(path string, a, b Prompt) {
	d.texts(path, a.Title, b.Title, a.Description, b.Description)
	pair(a.Arguments, b.Arguments, func(x Argument) string { return x.Name },
		func(x Argument) {
			d.add(ArgumentRemoved, true, path+"/arguments/"+x.Name, "argument %q removed: requests that give it are refused", x.Name)
		},
		func(x Argument) {
			if x.Required {
				d.add(ArgumentRequired, true, path+"/arguments/"+x.Name, "new required argument %q: requests without it are refused", x.Name)
			} else {
				d.add(ArgumentAdded, false, path+"/arguments/"+x.Name, "new optional argument %q", x.Name)
			}
		},
		func(x, y Argument) {
			p := path + "/arguments/" + x.Name
			switch {
			case !x.Required && y.Required:
				d.add(ArgumentRequired, true, p, "argument %q is now required: requests without it are refused", x.Name)
			case x.Required && !y.Required:
				d.add(ArgumentOptional, false, p, "argument %q is now optional", x.Name)
			}
			d.texts(p, x.Title, y.Title, x.Description, y.Description)
		})
}

func (d *differ) resource(path string, a, b Resource) {
	if a.MIMEType != b.MIMEType {
		d.add(MIMETypeChanged, true, path+"/mimeType", "MIME type changed from %q to %q: readers parse another format", a.MIMEType, b.MIMEType)
	}
	if a.Name != b.Name {
		d.add(TitleChanged, false, path+"/name", "name changed from %q to %q", a.Name, b.Name)
	}
	d.texts(path, a.Title, b.Title, a.Description, b.Description)
	if !bytes.Equal(a.Annotations, b.Annotations) || !bytes.Equal(a.Meta, b.Meta) || !slices.EqualFunc(a.Icons, b.Icons, iconEqual) {
		d.add(MetaChanged, false, path, "annotations, _meta or icons changed")
	}
}

func iconEqual(a, b Icon) bool {
	return a.Src == b.Src && a.MIMEType == b.MIMEType && a.Theme == b.Theme && slices.Equal(a.Sizes, b.Sizes)
}

// task compares how an action runs as a task. Only turning on Required
// breaks a client: a 2026-07-28 client that does not declare the tasks
// extension is then refused. A client that declares it takes a task or a
// result alike, and one that does not is answered directly otherwise.
func (d *differ) task(path string, a, b *Task) {
	p := path + "/task"
	switch {
	case b != nil && b.Required && (a == nil || !a.Required):
		d.add(TaskRequired, true, p, "now runs only as a task: 2026-07-28 clients that do not declare the tasks extension are refused")
	case a == nil && b != nil:
		d.add(TaskChanged, false, p, "now runs as a task for clients that declare the tasks extension")
	case a != nil && b == nil:
		d.add(TaskChanged, false, p, "no longer runs as a task: every client gets its result directly")
	case a != nil && a.Required && !b.Required:
		d.add(TaskChanged, false, p, "no longer only a task: clients without the tasks extension are answered directly")
	}
}

// minus is the elements of a not in b, in a's order. It indexes b in a
// set: looking each value up in the list b is quadratic, and two large
// enums took long enough to compare to stall vurb diff (bench/README.md).
func minus(a, b []string) []string {
	in := make(map[string]struct{}, len(b))
	for _, x := range b {
		in[x] = struct{}{}
	}
	var out []string
	for _, x := range a {
		if _, ok := in[x]; !ok {
			out = append(out, x)
		}
	}
	return out
}
