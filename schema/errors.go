package schema

import "github.com/vurb-go/vurb/internal/schema"

// Error lists every problem found in one call's arguments, not only the
// first, so that a model can fix them all in its next attempt. Its Error
// method joins the issues with "; ", each as "path: message", or just the
// message when the issue has no path, so the text reads as one sentence
// list. Past Messages.MaxIssues problems, a last issue says how many more
// there were.
type Error = schema.Error

// Issue is one problem in a call's arguments. Path is the JSON path of the
// offending value ("limit", "items[3].name", "tags[k]"), or "" when the
// problem concerns the arguments as a whole or the top-level object.
// Message is the text of the Messages the call was given. Its String
// method renders the issue the way Error joins them.
type Issue = schema.Issue
