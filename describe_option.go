package vurb

import "github.com/vurb-go/vurb/describe"

// WithDescriber sets the functions that write the tools' descriptions: the
// decorations of a flat tool ("Read-only: ", "Destructive: "), the action
// lines of a grouped tool, its TOON form. Each is a pure function of plain
// values, called once per tool at Build; a nil one keeps describe.Default's,
// so an app replaces only what it wants, or wraps the default:
//
//	vurb.WithDescriber(describe.Describer{
//		Flat: func(tool string, a describe.Action) string { return a.Description },
//	})
//
// The input schema, its field notes and the annotations are not
// descriptions: they stay as the exposition writes them.
func WithDescriber(d describe.Describer) Option {
	return func(c *config) { c.describer = d }
}
