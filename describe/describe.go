// Package describe writes what a model reads about a tool: its description
// text and its annotations. Every function here is pure, from plain values
// to plain values, so each rule is tested alone and vurb computes the text
// once, at build time.
package describe

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
}
