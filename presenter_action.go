package vurb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/schema"
)

// presenting is what an app's presenters compile to at Build: the shapes
// of its result types and how each action is called, for suggestions.
type presenting struct {
	shapes *shaper
	forms  map[string]callForm // by canonical key
	tagged bool                // a redact tag is in a type some action returns
}

// presentation returns the app's presenting, made on first use at Build
// (under the build lock), when it freezes the app's presenters.
func (a *App) presentation() *presenting {
	if a.presented != nil {
		return a.presented
	}
	for _, p := range a.presenters {
		p.frozen.Store(true)
	}
	ps := &presenting{forms: map[string]callForm{}}
	grouped := a.cfg.exposition == Grouped
	tagged := tagScan{}
	for _, t := range a.tools {
		for _, d := range t.allActions() {
			ps.tagged = ps.tagged || tagged.mayRedact(d.outType)
			f := callForm{wire: engine.FlatName(t.name, d.key, a.cfg.separator), action: d.key}
			if grouped && !t.solo() {
				f.wire, f.discriminator = t.name, t.discriminatorName()
			}
			ps.forms[d.canonicalKey()] = f
		}
	}
	// An interface's value is looked into when the app presents anything:
	// a presenter, or a redact tag in a type its actions return.
	ps.shapes = newShaper(a.presenters, len(a.presenters) > 0 || ps.tagged)
	a.presented = ps
	return ps
}

// suggests reports whether a presenter of the app suggests actions, which
// then need to know what each caller is shown.
func (a *App) suggests() bool {
	return slices.ContainsFunc(a.presenters, func(p *presenterDef) bool { return p.suggest })
}

// presentedAction is how one action's results are presented: compiled at
// Build, read by every call.
type presentedAction struct {
	shapes     *shaper
	root       *shape // the result type's; nil when dynamic
	dynamic    bool   // Out is an interface type: the shape is its value's
	structured bool   // the result is an object, also sent as structuredContent
	format     ResultFormat
	forms      map[string]callForm
	narrow     []string // the input fields that narrow a query, for cut collections
}

// present returns the action's endpoint and output schema as its app's
// presenters and redact tags make them: d.endpoint and d.outputSchema
// when nothing presents or redacts what it returns, so that such an
// action's calls run exactly the code they would without presenters.
func (d *ActionDef) present() (Handler, json.RawMessage) {
	if len(d.tool.app.presenters) > 0 {
		d.tool.app.presentation() // freezes the presenters, whatever the actions return
	}
	t := d.outType
	if d.presentWith == nil || t == nil || t.Kind() == reflect.String || t == reflect.TypeFor[*mcp.CallToolResult]() {
		return d.endpoint, d.outputSchema
	}
	app := d.tool.app
	ps := app.presentation()
	if len(app.presenters) == 0 && !ps.tagged {
		return d.endpoint, d.outputSchema // a plain app pays a look at its result types, at Build
	}
	pa := &presentedAction{shapes: ps.shapes, format: app.cfg.resultFormat, forms: ps.forms}
	if t.Kind() == reflect.Interface {
		if !ps.shapes.dynamic {
			return d.endpoint, d.outputSchema
		}
		pa.dynamic = true
	} else if pa.root = ps.shapes.of(t); pa.root == nil {
		return d.endpoint, d.outputSchema
	}
	pa.structured = isObjectType(t)
	pa.narrow = narrowingFields(d.codec)
	if d.outputSchema != nil {
		if red := ps.shapes.redactions(); len(red) > 0 {
			d.outputSchema, _ = schema.OutputSchemaRedacted(app.cfg.validator, t, red)
		}
	}
	d.presented = pa
	return d.presentWith(pa), d.outputSchema
}

// tagScan finds redact tags in result types without compiling shapes, so
// that an app with neither presenters nor tags compiles none. It
// remembers the types it has seen, across the app's actions.
type tagScan map[reflect.Type]bool

// mayRedact reports whether a redact tag is somewhere in what values of t
// hold (nil: none); a type seen before answers false, its answer given.
func (seen tagScan) mayRedact(t reflect.Type) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if marshalsItself(t) { // its tags are refused (shaper.own), not ignored
		return t.Kind() == reflect.Struct && hasRedactTag(t)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return seen.mayRedact(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if _, ok := f.Tag.Lookup("redact"); ok || seen.mayRedact(f.Type) {
				return true
			}
		}
	}
	return false
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

// adaptPresented is adapt for an action whose results are presented.
func adaptPresented[In, Out any](h func(context.Context, In) (Out, error), pa *presentedAction) Handler {
	pointer := reflect.TypeFor[In]().Kind() == reflect.Pointer
	return func(ctx context.Context, c *Call) (*mcp.CallToolResult, error) {
		var out Out
		var err error
		if pointer {
			out, err = h(ctx, c.Input.(In))
		} else {
			out, err = h(ctx, *c.Input.(*In))
		}
		if err != nil {
			return nil, err
		}
		return pa.result(c, reflect.ValueOf(&out).Elem())
	}
}

// result is the call's result: the presented data as text and, for an
// object, structuredContent, then the presentation block.
func (pa *presentedAction) result(c *Call, v reflect.Value) (*mcp.CallToolResult, error) {
	sh, structured := pa.root, pa.structured
	if pa.dynamic {
		if v.IsNil() {
			return dynamicResult(nil, pa.format)
		}
		e := v.Elem()
		switch x := e.Interface().(type) {
		case *mcp.CallToolResult, string:
			return dynamicResult(x, pa.format)
		}
		v, sh, structured = addressable(e), pa.shapes.dynamicOf(e.Type()), isObjectType(e.Type())
		if sh == nil {
			return encodeResult(e.Interface(), structured, pa.format)
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

// presentedResult is encodeResult for the presented JSON data: the text
// in format, written from data alone (a format other than JSON and TOON
// gets data decoded, as maps, slices and json.Number), so that no format
// can reach a redacted value.
func presentedResult(data []byte, structured bool, format ResultFormat) (*mcp.CallToolResult, error) {
	text := string(data)
	if format.text != nil {
		var v any = json.RawMessage(data)
		if !format.readsJSON {
			d := json.NewDecoder(bytes.NewReader(data))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				return nil, engine.InternalError{Err: fmt.Errorf("the presented result could not be decoded: %w", err)}
			}
		}
		t, err := format.text(v)
		if err != nil {
			return nil, engine.InternalError{Err: fmt.Errorf("the result could not be encoded as %s: %w", format.name, err)}
		}
		if !format.orJSON || len(t) < len(data) {
			text = t
		}
	}
	res := engine.TextResult(text, false)
	if structured && len(data) > 0 && data[0] == '{' {
		res.StructuredContent = json.RawMessage(data)
	}
	return res, nil
}
