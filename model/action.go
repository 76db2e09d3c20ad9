package model

import (
	"encoding/json"
	"slices"
	"strings"
)

// Sync is an action's state-sync policy: what a model may assume about its
// results, and what a successful call makes stale.
type Sync struct {
	// Cache is the directive in the action's description: "immutable",
	// "no-store", or "" for none.
	Cache string
	// Invalidates lists the key patterns ("tasks.*") whose earlier results
	// a successful call makes stale.
	Invalidates []string
}

// ActionInfo is what the builder needs of an action.
type ActionInfo struct {
	// Info names the action (its own name, "list"), titles and describes it
	// as its author did.
	Info
	// Tags are the action's tags, its group's and its tool's.
	Tags []string
	// Annotations are the hints of the action exposed on its own.
	Annotations Annotations
	// InputSchema and OutputSchema are the action's own JSON Schemas;
	// OutputSchema is nil when its result has none.
	InputSchema, OutputSchema json.RawMessage
	// Sync is the action's resolved state-sync policy.
	Sync Sync
	// Scopes are the OAuth scopes a caller needs, none when it is open.
	Scopes []string
	// Task says how the action runs as a task (the MCP tasks extension),
	// nil when it never does.
	Task *Task
	// Presentation is what presenters do to its results, nil for nothing.
	Presentation *Presentation
	// Workflow is its binding to a workflow, nil when it has none.
	Workflow *Workflow
}

// Task is how an action runs as a task.
type Task struct {
	// Required is true when the action runs only as a task: a 2026-07-28
	// client that does not declare the tasks extension is refused.
	Required bool
}

// Action is one vurb action: what a tool call dispatches to, the same in
// every exposition. Its structural parent is its vurb tool or the tool's
// group; categories its tool (or the action itself) joined are further
// parents.
type Action struct {
	entity
	m           *Model
	group       *Group
	tags        []string
	annotations Annotations
	input       json.RawMessage
	output      json.RawMessage
	sync        Sync
	scopes      []string
	task        *Task
	presented   *Presentation
	workflow    *Workflow

	joined  []*Group
	parents []*Group // computed at Build
	tools   []*Tool  // of the served exposition, computed at Build
}

// Group returns the action's structural parent: its vurb tool or the
// tool's group.
func (a *Action) Group() *Group { return a.group }

// Tool returns the vurb tool the action belongs to (a group of kind
// KindTool), or nil.
func (a *Action) Tool() *Group {
	if a.group == nil {
		return nil
	}
	return a.group.Root()
}

// Path returns the action's names from its tool down: [admin users list].
func (a *Action) Path() []string {
	if a.group == nil {
		return []string{a.name}
	}
	return append(a.group.Path(), a.name)
}

// Key returns the action's canonical dotted key (admin.users.list), the one
// vurb's policies and logs use, whatever the model's separator.
func (a *Action) Key() string { return strings.Join(a.Path(), ".") }

// FQN returns the action's path joined by the model's separator.
func (a *Action) FQN() string { return strings.Join(a.Path(), a.m.separator()) }

// Tags returns the action's tags (its own, its group's and its tool's).
func (a *Action) Tags() []string { return slices.Clone(a.tags) }

// Annotations returns the hints of the action exposed on its own.
func (a *Action) Annotations() Annotations { return a.annotations }

// InputSchema returns a copy of the action's own input JSON Schema.
func (a *Action) InputSchema() json.RawMessage { return slices.Clone(a.input) }

// OutputSchema returns a copy of the action's output JSON Schema, or nil.
func (a *Action) OutputSchema() json.RawMessage { return slices.Clone(a.output) }

// Sync returns a copy of the action's state-sync policy.
func (a *Action) Sync() Sync {
	return Sync{Cache: a.sync.Cache, Invalidates: slices.Clone(a.sync.Invalidates)}
}

// Scopes returns the OAuth scopes a caller needs for the action, or nil
// when it is open to every caller.
func (a *Action) Scopes() []string { return slices.Clone(a.scopes) }

// Task returns how the action runs as a task, nil when it never does.
func (a *Action) Task() *Task {
	if a.task == nil {
		return nil
	}
	t := *a.task
	return &t
}

// Parents returns the action's structural parent, then the categories it
// joined, in order.
func (a *Action) Parents() []*Group { return slices.Clone(a.parents) }

// Tools returns the tools of the served exposition that reach the action:
// none under tool search for an action not always loaded, which its
// exposition without search reaches (Model.ToolsIn).
func (a *Action) Tools() []*Tool { return slices.Clone(a.tools) }
