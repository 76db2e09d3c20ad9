package manifest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vurb-go/vurb/servercard"
)

// Format names the shape of a manifest; Parse refuses another major
// version.
const Format = "vurb.manifest/v1"

// Manifest is what a server offers, in canonical form: lists sorted by
// name, schemas and _meta in canonical JSON. Marshal writes it
// deterministically, so two manifests of the same server are the same
// bytes and a manifest under version control changes only when the server
// does.
type Manifest struct {
	Format string `json:"format"`
	Server Server `json:"server"`
	// Exposition is "flat" or "grouped" for a vurb app, "" otherwise.
	Exposition string `json:"exposition,omitempty"`
	// Tools are what tools/list returns, sorted by name.
	Tools []Tool `json:"tools"`
	// Actions are a vurb app's actions, sorted by key: what its tools
	// dispatch to, the same in every exposition.
	Actions           []Action   `json:"actions,omitempty"`
	Prompts           []Prompt   `json:"prompts,omitempty"`
	Resources         []Resource `json:"resources,omitempty"`
	ResourceTemplates []Resource `json:"resourceTemplates,omitempty"`
	// Skills are what skills/list returns (skill.go), sorted by URI.
	Skills []Skill `json:"skills,omitempty"`
	// Groups are a vurb app's tools, their groups and its categories,
	// sorted by fully qualified name.
	Groups []Group `json:"groups,omitempty"`
	// Alternates are the tools a vurb app would list in its other
	// exposition.
	Alternates []Exposition `json:"alternates,omitempty"`
	// Workflows are the state machines that gate a vurb app's actions,
	// sorted by name (workflow.go).
	Workflows []Workflow `json:"workflows,omitempty"`
	// ServerCard is the card the server serves beside its streamable HTTP
	// endpoint (SEP-2127), nil when it serves none or was not read over
	// HTTP (card.go).
	ServerCard *servercard.Card `json:"serverCard,omitempty"`
}

// Server is what the server says of itself.
type Server struct {
	Name         string `json:"name"`
	Title        string `json:"title,omitempty"`
	Version      string `json:"version,omitempty"`
	Instructions string `json:"instructions,omitempty"`
}

// Tool is one tool as tools/list describes it, and where it sits.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *Annotations    `json:"annotations,omitempty"`
	Auth         *Auth           `json:"auth,omitempty"`
	Meta         json.RawMessage `json:"_meta,omitempty"`
	Icons        []Icon          `json:"icons,omitempty"`
	// Actions are the keys of the vurb actions a call can reach.
	Actions []string `json:"actions,omitempty"`
	// Groups are the fully qualified names of the groups it sits in.
	Groups []string `json:"groups,omitempty"`
}

// Annotations are a tool's hints, as the wire states them: an unset
// destructiveHint or openWorldHint is absent (and means true).
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Destructive reports what a client must assume: a tool that is not
// read-only is destructive unless it says otherwise. A tool without
// annotations is destructive.
func (a *Annotations) Destructive() bool {
	if a == nil {
		return true
	}
	return !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint)
}

// readOnly reports whether the tool says it changes nothing; a tool
// without annotations may change anything.
func (a *Annotations) readOnly() bool { return a != nil && a.ReadOnlyHint }

// Action is one vurb action.
type Action struct {
	Key          string          `json:"key"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	Tags         []string        `json:"tags,omitempty"`
	Annotations  *Annotations    `json:"annotations"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Cache        string          `json:"cache,omitempty"`
	Invalidates  []string        `json:"invalidates,omitempty"`
	Auth         *Auth           `json:"auth,omitempty"`
	Groups       []string        `json:"groups,omitempty"`
	// Task is how the action runs as a task of the MCP tasks extension,
	// nil when it never does. The wire does not show it (tools/list has no
	// field for it), so it comes from the app: a manifest read from
	// tools/list alone has none, one a vurb app publishes does.
	Task *Task `json:"task,omitempty"`
	// Presentation is what presenters do to its results, nil for nothing
	// (presentation.go). Like Task, only the app says it.
	Presentation *Presentation `json:"presentation,omitempty"`
	// Workflow is its place in a workflow, nil when none gates it. Like
	// Task, only the app says it.
	Workflow *Binding `json:"workflow,omitempty"`
}

// Task is what a client depends on of an action that runs as a task
// (ActionDef.Task in package vurb).
type Task struct {
	// Required is true when the action runs only as a task
	// (vurb.WithTaskRequired): a 2026-07-28 client that does not declare the
	// tasks extension (io.modelcontextprotocol/tasks) is refused with
	// -32021 instead of being answered, so turning it on breaks such
	// clients.
	Required bool `json:"required"`
}

// Prompt is one prompt.
type Prompt struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Arguments   []Argument      `json:"arguments,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	Groups      []string        `json:"groups,omitempty"`
}

// Argument is one argument of a prompt, in the prompt's order.
type Argument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Resource is one resource, or one resource template (URITemplate set
// instead of URI).
type Resource struct {
	URI         string          `json:"uri,omitempty"`
	URITemplate string          `json:"uriTemplate,omitempty"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MIMEType    string          `json:"mimeType,omitempty"`
	Size        int64           `json:"size,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
	Groups      []string        `json:"groups,omitempty"`
}

// id is the resource's URI or URI template.
func (r Resource) id() string { return r.URI + r.URITemplate }

// Icon is one icon of an entity.
type Icon struct {
	Src      string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// Group is a group of the model: a vurb tool, a group of its actions or a
// category.
type Group struct {
	FQN         string          `json:"fqn"`
	Kind        string          `json:"kind"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Tags        []string        `json:"tags,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
	Icons       []Icon          `json:"icons,omitempty"`
}

// Exposition is the tools of one exposition.
type Exposition struct {
	Name  string `json:"name"`
	Tools []Tool `json:"tools"`
}

// Marshal writes the manifest in its canonical form: normalized, indented
// by two spaces, ending in a newline.
func (m Manifest) Marshal() ([]byte, error) { return marshal(Normalize(m)) }

// Parse reads a manifest and normalizes it. It refuses a document that is
// not a vurb manifest, one of another major format version, and one that
// names a tool, action, prompt, resource, group or exposition twice (see
// Unique).
func Parse(data []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("not a vurb manifest: %w", err)
	}
	if err := checkFormat(m.Format, Format); err != nil {
		return Manifest{}, err
	}
	if err := Unique(m); err != nil {
		return Manifest{}, err
	}
	return Normalize(m), nil
}

// checkFormat accepts got when it is want or a later minor form of the
// same major version.
func checkFormat(got, want string) error {
	if got == want || strings.HasPrefix(got, want+".") {
		return nil
	}
	if got == "" {
		return fmt.Errorf("not a vurb file: it has no \"format\" (want %q)", want)
	}
	return fmt.Errorf("format %q is not %q: written by another vurb version", got, want)
}
