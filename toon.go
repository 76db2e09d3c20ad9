package vurb

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/toon"
)

// ResultFormat is how structured results (structs, maps, slices) are
// written in the text block a model reads. structuredContent, when there is
// one, is JSON either way: it is for programs.
type ResultFormat int

const (
	// JSONResults writes JSON text (the default).
	JSONResults ResultFormat = iota
	// TOONResults writes TOON text with the pipe delimiter: the same data
	// in far fewer tokens, above all for lists of records.
	TOONResults
)

// WithResultFormat sets how structured results are written for the model.
func WithResultFormat(f ResultFormat) Option { return func(c *config) { c.resultFormat = f } }

// TOON returns a successful result holding v encoded as TOON, with the pipe
// delimiter unless opts say otherwise. A value that cannot be encoded
// yields a tool error saying so; the reason goes to slog.Default().
func TOON(v any, opts ...toon.Option) *mcp.CallToolResult {
	text, err := toonText(v, opts...)
	if err != nil {
		return encodeFailure(err)
	}
	return Text(text)
}

func toonText(v any, opts ...toon.Option) (string, error) {
	data, err := toon.Marshal(v, append([]toon.Option{toon.WithDelimiter(toon.Pipe)}, opts...)...)
	return string(data), err
}

// TOONDescription describes the tool in TOON in grouped exposition: a
// summary line and a table of its actions instead of the Markdown workflow
// list. Flat exposition is not affected: there each action is its own tool.
func (t *Tool) TOONDescription() *Tool {
	t.mustBeMutable()
	t.toonDescription = true
	return t
}
