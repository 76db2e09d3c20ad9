package vurb

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
	ipresenter "github.com/vurb-go/vurb/internal/presenter"
	"github.com/vurb-go/vurb/model"
)

// Presenters are declared in package presenter and given to the app here
// (WithPresenters); internal/presenter compiles them at Build into the
// shapes of the app's result types, writes each presented result and the
// block the model reads after it.

// presenterDef is a presenter without its type parameter: what the
// build compiles into shapes and the writer calls.
type presenterDef = ipresenter.Def

// presenting is what an app's presenters compile to at Build: the shapes
// of its result types and how each action is called, for suggestions.
type presenting = ipresenter.Set

// presentation returns the app's presenting, made on first use at Build
// (under the build lock), when it freezes the app's presenters.
func (a *App) presentation() *presenting {
	if a.presented != nil {
		return a.presented
	}
	forms := map[string]ipresenter.CallForm{}
	var outs []reflect.Type
	grouped := a.cfg.exposition == Grouped
	for _, t := range a.tools {
		for _, d := range t.allActions() {
			outs = append(outs, d.outType)
			f := ipresenter.CallForm{Wire: engine.FlatName(t.name, d.key, a.cfg.separator), Action: d.key}
			if grouped && !t.solo() {
				f.Wire, f.Discriminator = t.name, t.discriminatorName()
			}
			forms[d.canonicalKey()] = f
		}
	}
	rf := a.cfg.resultFormat
	a.presented = ipresenter.NewSet(a.cfg.presenters, forms, outs, ipresenter.Format{
		Name: rf.name, Text: rf.text, OrJSON: rf.orJSON, ReadsJSON: rf.readsJSON,
		Encode:  func(v any, structured bool) (*mcp.CallToolResult, error) { return encodeResult(v, structured, rf) },
		Dynamic: func(v any) (*mcp.CallToolResult, error) { return dynamicResult(v, rf) },
	}, a.cfg.validator)
	return a.presented
}

// suggests reports whether a presenter of the app suggests actions, which
// then need to know what each caller is shown.
func (a *App) suggests() bool { return ipresenter.Suggests(a.cfg.presenters) }

// presentedAction is how one action's results are presented: compiled at
// Build, read by every call.
type presentedAction ipresenter.Action

// present returns the action's endpoint and output schema as its app's
// presenters and redact tags make them: d.endpoint and d.outputSchema
// when nothing presents or redacts what it returns, so that such an
// action's calls run exactly the code they would without presenters.
func (d *ActionDef) present() (Handler, json.RawMessage) {
	app := d.tool.app
	if len(app.cfg.presenters) > 0 {
		app.presentation() // freezes the presenters, whatever the actions return
	}
	t := d.outType
	if d.presentWith == nil || t == nil || t.Kind() == reflect.String || t == reflect.TypeFor[*mcp.CallToolResult]() {
		return d.endpoint, d.outputSchema
	}
	pa, outputSchema := app.presentation().Action(t, d.codec, d.outputSchema)
	if pa == nil {
		return d.endpoint, d.outputSchema
	}
	d.outputSchema = outputSchema
	d.presented = (*presentedAction)(pa)
	return d.presentWith(d.presented), d.outputSchema
}

// model is what the app's model (and so its manifest) says of how the
// action's results are presented; nil when nothing presents them.
func (pa *presentedAction) model() *model.Presentation {
	return (*ipresenter.Action)(pa).Model()
}

// adaptPresented is adapt for an action whose results are presented.
func adaptPresented[In, Out any](h func(context.Context, In) (Out, error), pa *presentedAction) Handler {
	pointer := reflect.TypeFor[In]().Kind() == reflect.Pointer
	action := (*ipresenter.Action)(pa)
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
		return action.Result((*engine.Call)(c), reflect.ValueOf(&out).Elem())
	}
}
