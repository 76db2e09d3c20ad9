// Package describe writes what a model reads about a tool: its description
// text and its annotations. Every function here is pure, from plain values
// to plain values, so each rule is tested alone and vurb computes the text
// once, at build time. A Describer bundles the description functions an app
// uses (vurb.WithDescriber); Default is vurb's own.
package describe

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Action is what describe needs to know of one action.
type Action struct {
	// Key is the action's key within its tool: "list" or "users.list".
	Key         string
	Description string
	// Required lists the input fields the action requires, in declaration
	// order.
	Required    []string
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	// OpenWorld is nil when the action did not say.
	OpenWorld *bool
	Title     string
	// Cache is the action's state-sync cache directive ("no-store",
	// "immutable"), or "".
	Cache string
	// Annotations are the ones the action is listed with in flat
	// exposition: its explicit ones, or ForAction's.
	Annotations *mcp.ToolAnnotations
}

// Group is a module of a hierarchical tool.
type Group struct {
	Name        string
	Description string
}

// Tool is what describe needs to know of one tool.
type Tool struct {
	Name        string
	Description string
	// Groups is empty for a tool whose actions are direct. When it is not,
	// every Action.Key is "group.action" for one of these groups.
	Groups  []Group
	Actions []Action
	// Cache is the cache directive all actions share, or "" when they
	// differ or have none.
	Cache string
}
