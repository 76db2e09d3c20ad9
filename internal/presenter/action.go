package presenter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/schema"
)

// Set is what an app's presenters compile to at Build: the shapes of its
// result types and how each action is called, for suggestions.
type Set struct {
	shapes *shaper
	forms  map[string]CallForm // by canonical key
	tagged bool                // a redact tag is in a type some action returns
	any    bool                // the app has presenters
	// ifaces is whether a type some action returns holds an interface,
	// whose values may carry redact tags only the call reveals.
	ifaces bool
	format Format
	// validator is the app's, which writes its output schemas.
	validator *schema.Validator
}

// Format is the app's result format, as the root's ResultFormat holds it,
// with the root's encoders of results no presenter reaches.
type Format struct {
	Name string
	// Text writes v for the model; nil means the JSON, already encoded.
	Text func(v any) (string, error)
	// OrJSON sends the compact JSON instead of text when it is not longer.
	OrJSON bool
	// ReadsJSON: Text writes a json.RawMessage as the JSON value it holds.
	ReadsJSON bool
	// Encode is the result of v, in the format; structured says whether
	// it is an object, also sent as structuredContent.
	Encode func(v any, structured bool) (*mcp.CallToolResult, error)
	// Dynamic is the result of v, the value of a result of interface type
	// that no presenter reaches.
	Dynamic func(v any) (*mcp.CallToolResult, error)
}

// NewSet compiles an app's presenters, freezing them: forms says how each
// action is called by its canonical key, outs are the types the actions
// return (nil for none), format is how results are written, v the app's
// validator.
func NewSet(presenters []*Def, forms map[string]CallForm, outs []reflect.Type, format Format, v *schema.Validator) *Set {
	for _, p := range presenters {
		p.frozen.Store(true)
	}
	ps := &Set{forms: forms, any: len(presenters) > 0, format: format, validator: v, shapes: newShaper(presenters)}
	for _, t := range outs {
		if t != nil {
			r := ps.shapes.reachOf(t)
			ps.tagged = ps.tagged || r.path != ""
			ps.ifaces = ps.ifaces || r.iface
		}
	}
	return ps
}

// Action is how one action's results are presented: compiled at Build,
// read by every call.
type Action struct {
	shapes  *shaper
	root    *shape // the result type's; nil when dynamic
	dynamic bool   // Out is an interface type: the shape is its value's
	// scan is whether only a value behind an interface can carry a
	// redaction (the app has no presenters and no redact tags in its
	// result types): a result that holds none is encoded as it would be
	// without presenters, byte for byte.
	scan       bool
	structured bool // the result is an object, also sent as structuredContent
	format     Format
	forms      map[string]CallForm
	narrow     []string // the input fields that narrow a query, for cut collections
}

// Action returns how the results of an action are presented, t its
// result type (not a string or a *mcp.CallToolResult), codec its input's,
// and its output schema as the presenters make it (outputSchema itself
// when they redact nothing). It returns nil when nothing presents or
// redacts what the action returns and it holds no interface (whose values
// may carry redact tags), so that its calls run exactly the code they
// would without presenters.
func (ps *Set) Action(t reflect.Type, codec *schema.Codec, outputSchema json.RawMessage) (*Action, json.RawMessage) {
	if !ps.any && !ps.tagged && !ps.ifaces {
		return nil, outputSchema // a plain app pays a look at its result types, at Build
	}
	pa := &Action{shapes: ps.shapes, format: ps.format, forms: ps.forms, scan: !ps.any && !ps.tagged}
	if t.Kind() == reflect.Interface {
		pa.dynamic = true
	} else if pa.root = ps.shapes.of(t); pa.root == nil {
		return nil, outputSchema
	}
	pa.structured = isObjectType(t)
	pa.narrow = narrowingFields(codec)
	if outputSchema != nil {
		if red := ps.shapes.redactions(); len(red) > 0 {
			outputSchema, _ = ps.validator.OutputSchemaRedacted(t, red)
		}
	}
	return pa, outputSchema
}

// isObjectType reports whether values of t encode as JSON objects, and so
// may be structuredContent (as the root's encoders decide).
func isObjectType(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct || t.Kind() == reflect.Map
}

// redactions are the redacted fields of every struct shape compiled so
// far, for the output schemas.
func (s *shaper) redactions() schema.Redactions {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := schema.Redactions{}
	for t, sh := range s.memo {
		if sh == nil || sh.kind != shapeStruct {
			continue
		}
		for _, f := range sh.fields {
			if f.redacted {
				if out[t] == nil {
					out[t] = map[string]schema.Redaction{}
				}
				var marker string
				_ = json.Unmarshal(f.marker, &marker)
				out[t][f.name] = schema.Redaction{Omit: f.omitted, Marker: marker}
			}
		}
	}
	return out
}

// narrowingFields are the input fields that narrow a query: those tagged
// filter:"true", or else every optional one.
func narrowingFields(c *schema.Codec) []string {
	if c == nil {
		return nil
	}
	var tagged, optional []string
	if t := c.Type(); t != nil && t.Kind() == reflect.Struct {
		for _, f := range schema.JSONFields(t) {
			if f.Field.Tag.Get("filter") == "true" {
				tagged = append(tagged, f.Name)
			}
		}
	}
	if len(tagged) > 0 {
		return tagged
	}
	for _, f := range c.Fields() {
		if !f.Required {
			optional = append(optional, f.Name)
		}
	}
	return optional
}

// Result is the call's result, v the value its handler returned (of the
// action's result type, addressable): the presented data as text and,
// for an object, structuredContent, then the presentation block.
func (pa *Action) Result(c *engine.Call, v reflect.Value) (*mcp.CallToolResult, error) {
	sh, structured := pa.root, pa.structured
	if pa.scan && pa.shapes.held(v, 0) == nil {
		if pa.dynamic {
			return pa.format.Dynamic(v.Interface())
		}
		return pa.format.Encode(v.Interface(), structured)
	}
	if pa.dynamic {
		if v.IsNil() {
			return pa.format.Dynamic(nil)
		}
		e := v.Elem()
		switch x := e.Interface().(type) {
		case *mcp.CallToolResult, string:
			return pa.format.Dynamic(x)
		}
		var err error
		if sh, err = pa.shapes.dynamicOf(e.Type()); err != nil {
			return nil, engine.InternalError{Err: err}
		}
		v, structured = addressable(e), isObjectType(e.Type())
		if sh == nil {
			return pa.format.Encode(e.Interface(), structured)
		}
	}
	w := writer{shapes: pa.shapes}
	if err := w.write(v, sh, false); err != nil {
		return nil, engine.InternalError{Err: fmt.Errorf("the result could not be encoded as JSON: %w", err)}
	}
	res, err := presentedResult(w.buf, structured, pa.format)
	if err != nil {
		return nil, err
	}
	if block := w.notes.text(pa, c); block != "" {
		res.Content = append(res.Content, &mcp.TextContent{Text: block})
	}
	return res, nil
}

// presentedResult is the root's encodeResult for the presented JSON data: the text
// in format, written from data alone (a format other than JSON and TOON
// gets data decoded, as maps, slices and json.Number), so that no format
// can reach a redacted value.
func presentedResult(data []byte, structured bool, format Format) (*mcp.CallToolResult, error) {
	text := string(data)
	if format.Text != nil {
		var v any = json.RawMessage(data)
		if !format.ReadsJSON {
			d := json.NewDecoder(bytes.NewReader(data))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				return nil, engine.InternalError{Err: fmt.Errorf("the presented result could not be decoded: %w", err)}
			}
		}
		t, err := format.Text(v)
		if err != nil {
			return nil, engine.InternalError{Err: fmt.Errorf("the result could not be encoded as %s: %w", format.Name, err)}
		}
		if !format.OrJSON || len(t) < len(data) {
			text = t
		}
	}
	res := engine.TextResult(text, false)
	if structured && len(data) > 0 && data[0] == '{' {
		res.StructuredContent = json.RawMessage(data)
	}
	return res, nil
}
