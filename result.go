package vurb

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/toon"
)

// Text returns a successful result holding one text block.
func Text(text string) *mcp.CallToolResult { return engine.TextResult(text, false) }

// Error returns a tool error (isError true) holding message. Use it for
// failures the model should read and can act on; a Go error returned by a
// handler ends up the same way, prefixed with the tool and action.
func Error(message string) *mcp.CallToolResult { return engine.ErrorResult(message) }

// JSON returns v as JSON text and, when v encodes to a JSON object, as
// structuredContent too. A value that cannot be encoded is an internal
// error: returned by a handler, the call answers with the app's Internal
// message and a reference, and the reason, which names Go types, goes to
// the app's logger with the same reference, never to the client.
func JSON(v any) *mcp.CallToolResult {
	res, err := encodeResult(v, true, JSONResults())
	if err != nil {
		return encodeFailure(err)
	}
	return res
}

// TOON returns a successful result holding v encoded as TOON, with the pipe
// delimiter unless opts say otherwise. A value that cannot be encoded is an
// internal error, as for JSON.
func TOON(v any, opts ...toon.Option) *mcp.CallToolResult {
	text, err := toonText(v, opts...)
	if err != nil {
		return encodeFailure(err)
	}
	return Text(text)
}

// encodeFailure is the result of a helper that could not encode its value.
// A handler that returns it answers with its app's Messages.Internal and a
// reference, and err goes to the app's log (see engine.FailedResult): the
// helper sees no app, so its own text, encodeFailedText, is read only
// where no call sees the result.
func encodeFailure(err error) *mcp.CallToolResult {
	return engine.FailedResult(encodeFailedText, fmt.Errorf("the result could not be encoded: %w", err))
}

// encodeFailedText is the text of an encodeFailure no call answered with.
const encodeFailedText = "internal error: the result could not be encoded; the server has logged the details"

// encodeResult writes v for the model in format, encoding it once per
// form it needs: JSON when format is JSON, v is an object (whose JSON is
// also structuredContent) or format sends the shorter of its text and the
// JSON, and format's own text when it is another.
func encodeResult(v any, structured bool, format ResultFormat) (*mcp.CallToolResult, error) {
	var data []byte
	if format.text == nil || structured || format.orJSON {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return nil, engine.InternalError{Err: fmt.Errorf("the result could not be encoded as JSON: %w", err)}
		}
	}
	text := string(data)
	if format.text != nil {
		var err error
		if text, err = format.text(v); err != nil {
			return nil, engine.InternalError{Err: fmt.Errorf("the result could not be encoded as %s: %w", format.name, err)}
		}
		if format.orJSON && len(data) <= len(text) {
			text = string(data)
		}
	}
	res := engine.TextResult(text, false)
	if structured && len(data) > 0 && data[0] == '{' {
		res.StructuredContent = json.RawMessage(data)
	}
	return res, nil
}

// resultEncoder picks, at definition time, how a handler's Out becomes a
// tool result:
//   - *mcp.CallToolResult is used as is (nil means an empty success);
//   - string becomes one text block;
//   - structs, pointers to structs and maps become text in the app's
//     ResultFormat plus JSON structuredContent;
//   - anything else (slices, numbers, booleans) becomes text;
//   - an interface type is inspected per call with the same rules.
func resultEncoder[Out any](format ResultFormat) func(Out) (*mcp.CallToolResult, error) {
	t := reflect.TypeFor[Out]()
	switch {
	case t == reflect.TypeFor[*mcp.CallToolResult]():
		return func(out Out) (*mcp.CallToolResult, error) {
			return rawResult(any(out).(*mcp.CallToolResult)), nil
		}
	case t.Kind() == reflect.String:
		return func(out Out) (*mcp.CallToolResult, error) {
			return Text(reflect.ValueOf(out).String()), nil
		}
	case t.Kind() == reflect.Interface:
		return func(out Out) (*mcp.CallToolResult, error) { return dynamicResult(any(out), format) }
	default:
		structured := isObjectType(t)
		return func(out Out) (*mcp.CallToolResult, error) { return encodeResult(out, structured, format) }
	}
}

// dynamicResult applies resultEncoder's rules to a value known only at run
// time (an Out of interface type).
func dynamicResult(v any, format ResultFormat) (*mcp.CallToolResult, error) {
	switch v := v.(type) {
	case *mcp.CallToolResult:
		return rawResult(v), nil
	case string:
		return Text(v), nil
	case nil:
		return Text("null"), nil
	}
	return encodeResult(v, isObjectType(reflect.TypeOf(v)), format)
}

func rawResult(r *mcp.CallToolResult) *mcp.CallToolResult {
	if r == nil {
		return &mcp.CallToolResult{Content: []mcp.Content{}}
	}
	return r
}

// isObjectType reports whether values of t encode as JSON objects, and so
// may be structuredContent.
func isObjectType(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct || t.Kind() == reflect.Map
}

// ResultFormat is how structured results (structs, maps, slices) are
// written in the text block a model reads. structuredContent, when there is
// one, is JSON whatever the format: it is for programs. A format is a
// value: JSONResults(), TOONResults(), or one of your own from
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

// JSONResults writes results as JSON text. It is the default, and the zero
// ResultFormat.
func JSONResults() ResultFormat { return ResultFormat{name: "JSON"} }

// TOONResults writes results as TOON text with the pipe delimiter where it
// is shorter than compact JSON, and as the JSON where it is not. TOON wins
// on lists of uniform records (a header instead of keys on every row); on
// nested, non-uniform records its indentation and per-item keys cost more
// than JSON's braces (bench/README.md has the sizes). Bytes decide: they
// are free to count, once both texts exist, and track tokens closely for
// these two notations, whose savings are whole keys and quotes.
func TOONResults() ResultFormat {
	return ResultFormat{name: "TOON", text: func(v any) (string, error) { return toonText(v) }, orJSON: true, readsJSON: true}
}

// NewResultFormat returns a format that writes results with encode (YAML,
// CSV, a template: whatever your model reads best). name appears in the
// server log when encode fails.
func NewResultFormat(name string, encode func(v any) (string, error)) ResultFormat {
	if encode == nil {
		panic("vurb: NewResultFormat(" + name + "): nil encode function")
	}
	return ResultFormat{name: name, text: encode}
}

func toonText(v any, opts ...toon.Option) (string, error) {
	data, err := toon.Marshal(v, append([]toon.Option{toon.WithDelimiter(toon.Pipe)}, opts...)...)
	return string(data), err
}
