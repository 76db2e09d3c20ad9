package model

import "slices"

// DefaultSeparator joins the names of a fully qualified name.
const DefaultSeparator = "."

// Server is what a server says of itself at initialize.
type Server struct {
	Name            string
	Title           string
	Version         string
	Instructions    string
	ProtocolVersion string
}

// Option configures a model at NewBuilder.
type Option func(*Model)

// WithSeparator sets the string that joins fully qualified names ("." by
// default): WithSeparator("/") makes platform/users/management.
func WithSeparator(sep string) Option { return func(m *Model) { m.sep = sep } }

// Model is an MCP server's primitives: an immutable snapshot, safe to share
// between goroutines. See the package documentation for its shape.
type Model struct {
	server      Server
	sep         string
	served      string
	expositions []string
	tools       map[string][]*Tool // by exposition, in listing order
	roots       []*Group
	groups      []*Group // every group, depth first
	actions     []*Action
	prompts     []*Prompt
	resources   []*Resource

	groupIndex  map[string]*Group  // by fully qualified name
	actionIndex map[string]*Action // by canonical key
}

func (m *Model) separator() string {
	if m == nil {
		return DefaultSeparator
	}
	return m.sep
}

// Server returns what the server said of itself.
func (m *Model) Server() Server { return m.server }

// Separator returns the string joining fully qualified names.
func (m *Model) Separator() string { return m.sep }

// Exposition returns the name of the served exposition: "flat" or
// "grouped" for a vurb app ("flat+search" or "grouped+search" under tool
// search, whose listing is its search tools and those always loaded, the
// other two expositions being what it would list without search), "" for
// a server seen only on the wire.
func (m *Model) Exposition() string { return m.served }

// Expositions returns the names of every exposition the model holds tools
// for, the served one first.
func (m *Model) Expositions() []string { return slices.Clone(m.expositions) }

// Tools returns the tools of the served exposition, in listing order: what
// tools/list returns.
func (m *Model) Tools() []*Tool { return slices.Clone(m.tools[m.served]) }

// ToolsIn returns the tools the app lists in the named exposition, or nil
// when the model holds none for it.
func (m *Model) ToolsIn(exposition string) []*Tool { return slices.Clone(m.tools[exposition]) }

// Tool returns the served tool called name, or nil.
func (m *Model) Tool(name string) *Tool {
	for _, t := range m.tools[m.served] {
		if t.name == name {
			return t
		}
	}
	return nil
}

// Groups returns the roots of the model's trees, in declaration order:
// vurb tools and top-level categories.
func (m *Model) Groups() []*Group { return slices.Clone(m.roots) }

// AllGroups returns every group, each root followed by its descendants,
// depth first.
func (m *Model) AllGroups() []*Group { return slices.Clone(m.groups) }

// Group returns the group whose fully qualified name is fqn, or nil.
func (m *Model) Group(fqn string) *Group { return m.groupIndex[fqn] }

// Actions returns every vurb action, in declaration order.
func (m *Model) Actions() []*Action { return slices.Clone(m.actions) }

// Action returns the action whose canonical key is key, or nil.
func (m *Model) Action(key string) *Action { return m.actionIndex[key] }

// Prompts returns the prompts, in declaration order.
func (m *Model) Prompts() []*Prompt { return slices.Clone(m.prompts) }

// Prompt returns the prompt called name, or nil.
func (m *Model) Prompt(name string) *Prompt {
	for _, p := range m.prompts {
		if p.name == name {
			return p
		}
	}
	return nil
}

// Resources returns the resources and resource templates, in declaration
// order.
func (m *Model) Resources() []*Resource { return slices.Clone(m.resources) }

// Resource returns the resource whose URI (or URI template) is uri, or nil.
func (m *Model) Resource(uri string) *Resource {
	for _, r := range m.resources {
		if r.uri == uri {
			return r
		}
	}
	return nil
}
