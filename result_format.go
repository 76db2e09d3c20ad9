package vurb

import "github.com/vurb-go/vurb/toon"

// ResultFormat is how structured results (structs, maps, slices) are
// written in the text block a model reads. structuredContent, when there is
// one, is JSON whatever the format: it is for programs. A format is a
// value: JSONResults, TOONResults, or one of your own from
// NewResultFormat. Each form a result needs is encoded once.
type ResultFormat struct {
	name string
	// text writes v for the model; nil means the JSON, already encoded.
	text func(v any) (string, error)
	// orJSON sends the compact JSON instead of text when it is not longer.
	orJSON bool
	// readsJSON: text writes a json.RawMessage as the JSON value it holds,
	// in its key order (a presented result is handed over so).
	readsJSON bool
}

var (
	// JSONResults writes JSON text (the default, and the zero ResultFormat).
	JSONResults = ResultFormat{name: "JSON"}
	// TOONResults writes TOON text with the pipe delimiter where it is
	// shorter than compact JSON, and the JSON where it is not. TOON wins on
	// lists of uniform records (a header instead of keys on every row,
	// about a third smaller); on nested, non-uniform records its indentation
	// and per-item keys cost more than JSON's braces (a fifth larger on
	// such data). Bytes decide: they are free to count, once both texts
	// exist, and track tokens closely for these two notations, whose
	// savings are whole keys and quotes.
	TOONResults = ResultFormat{name: "TOON", text: func(v any) (string, error) { return toonText(v) }, orJSON: true, readsJSON: true}
)

// NewResultFormat returns a format that writes results with encode (YAML,
// CSV, a template: whatever your model reads best). name appears in the
// server log when encode fails.
func NewResultFormat(name string, encode func(v any) (string, error)) ResultFormat {
	if encode == nil {
		panic("vurb: NewResultFormat(" + name + "): nil encode function")
	}
	return ResultFormat{name: name, text: encode}
}

// WithResultFormat sets how structured results are written for the model.
func WithResultFormat(f ResultFormat) Option { return func(c *config) { c.resultFormat = f } }

func toonText(v any, opts ...toon.Option) (string, error) {
	data, err := toon.Marshal(v, append([]toon.Option{toon.WithDelimiter(toon.Pipe)}, opts...)...)
	return string(data), err
}
