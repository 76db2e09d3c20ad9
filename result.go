package vurb

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Text returns a successful result holding one text block.
func Text(text string) *mcp.CallToolResult { return textResult(text, false) }

// Error returns a tool error (isError true) holding message. Use it for
// failures the model should read and can act on; a Go error returned by a
// handler ends up the same way, prefixed with the tool and action.
func Error(message string) *mcp.CallToolResult { return textResult(message, true) }

// oneText holds a result, its content slice and its text block in one
// allocation instead of three: most results are a single text.
type oneText struct {
	res     mcp.CallToolResult
	content [1]mcp.Content
	text    mcp.TextContent
}

func textResult(text string, isError bool) *mcp.CallToolResult {
	r := &oneText{}
	r.text.Text = text
	r.content[0] = &r.text
	r.res.Content = r.content[:]
	r.res.IsError = isError
	return &r.res
}

// JSON returns v as JSON text and, when v encodes to a JSON object, as
// structuredContent too. A value that cannot be encoded yields a tool error
// saying so; the reason, which names Go types, goes to slog.Default().
func JSON(v any) *mcp.CallToolResult {
	res, err := jsonResult(v, true)
	if err != nil {
		return encodeFailure(err)
	}
	return res
}

// encodeFailure logs why a helper could not encode a result and returns
// the error result the client sees, without the Go details.
func encodeFailure(err error) *mcp.CallToolResult {
	slog.Default().Error("vurb: a result could not be encoded", "err", err)
	return Error(MsgEncodeFailed)
}

// internalError is a failure of the server, not of the call: its text is
// for the log, and the client gets MsgInternal with a reference instead.
type internalError struct{ err error }

func (e internalError) Error() string { return e.err.Error() }
func (e internalError) Unwrap() error { return e.err }

// jsonResult encodes v once and uses the bytes twice: as the text block and,
// when structured is true and v is an object, as structuredContent.
func jsonResult(v any, structured bool) (*mcp.CallToolResult, error) {
	return encodeResult(v, structured, JSONResults)
}

// encodeResult writes v for the model in format; structuredContent is
// always the JSON.
func encodeResult(v any, structured bool, format ResultFormat) (*mcp.CallToolResult, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, internalError{fmt.Errorf("the result could not be encoded as JSON: %w", err)}
	}
	text := string(data)
	if format == TOONResults {
		if text, err = toonText(v); err != nil {
			return nil, internalError{fmt.Errorf("the result could not be encoded as TOON: %w", err)}
		}
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	if structured && len(data) > 0 && data[0] == '{' {
		res.StructuredContent = json.RawMessage(data)
	}
	return res, nil
}

// resultEncoder picks, at definition time, how a handler's Out becomes a
// tool result:
//   - *mcp.CallToolResult is used as is (nil means an empty success);
//   - string becomes one text block;
//   - structs, pointers to structs and maps become JSON text plus
//     structuredContent;
//   - anything else (slices, numbers, booleans) becomes JSON text;
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
