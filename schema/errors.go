package schema

import "strings"

// Error lists every problem found in one call's arguments, not only the
// first, so that a model can fix them all in its next attempt.
type Error struct {
	Issues []Issue
}

// Issue is one problem in a call's arguments. Path is the JSON path of the
// offending value ("limit", "items[3].name", "tags[k]"), or "" when the
// problem concerns the arguments as a whole or the top-level object.
type Issue struct {
	Path    string
	Message string
}

// Error joins the issues with "; ", each as "path: message", or just the
// message when the issue has no path, so the text reads as one sentence list.
func (e *Error) Error() string {
	var b strings.Builder
	for i, is := range e.Issues {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(is.String())
	}
	return b.String()
}

// String renders one issue the way Error joins them.
func (i Issue) String() string {
	if i.Path == "" {
		return i.Message
	}
	return i.Path + ": " + i.Message
}
