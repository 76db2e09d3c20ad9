package vurb

import (
	"fmt"
	"slices"
	"time"

	"github.com/samber/lo"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/schema"
)

// lower turns the App's definitions into the plain specs the engine
// compiles. It runs once, under the build lock, and panics on definition
// errors. Middleware constructors run here, once per action: views of the
// plan (tag filters) reuse the chains composed now.
func (a *App) lower() engine.Spec {
	rt := a.runtime()
	policies := compilePolicies(a.cfg.policies, a.cfg.defaultCache)
	specs := make([]*engine.ToolSpec, len(a.tools))
	var defs []*ActionDef
	var actions []*engine.ActionSpec
	for i, t := range a.tools {
		specs[i] = t.lower(rt, policies)
		defs = append(defs, t.allActions()...)
		actions = append(actions, specs[i].Actions...)
	}
	if slices.ContainsFunc(defs, func(d *ActionDef) bool { return d.flowMachine != nil || d.flowEvent != "" }) {
		a.lowerFlows(defs, actions)
		rt.Workflows = a.workflowStore()
	}
	return engine.Spec{Tools: specs, Exposition: a.cfg.exposition.engine(), Separator: a.cfg.separator, Runtime: rt,
		Search: a.cfg.search}
}

// runtime is what the plan's calls share, taken from the options once.
func (a *App) runtime() *engine.Runtime {
	m := a.cfg.messages
	rt := &engine.Runtime{
		Validator: a.cfg.validator,
		Logger:    a.cfg.logger,
		Inline:    a.cfg.inline,
		Describer: a.cfg.describer,
		Messages: engine.Messages{
			UnknownTool:            m.UnknownTool,
			DiscriminatorMissing:   m.DiscriminatorMissing,
			DiscriminatorNotString: m.DiscriminatorNotString,
			UnknownAction:          m.UnknownAction,
			InvalidArguments:       m.InvalidArguments,
			Timeout:                m.Timeout,
			Internal:               m.Internal,
			Busy:                   m.Busy,
			MissingScopes:          m.MissingScopes,
			RateLimited:            m.RateLimited,
			AtCapacity:             m.AtCapacity,
			Truncated:              m.Truncated,
		},
	}
	rt.Decode = a.decodeOptions()
	rt.Scopes = a.scopes
	rt.LogAttrs = a.cfg.logContext
	rt.Sealer = engine.NewSealer(a.cfg.stateKeys, a.cfg.stateMaxAge, 0)
	if l := a.cfg.replicas.Ledger; l != nil {
		rt.Sealer.SpendShared(l, a.cfg.logger)
	}
	if obs := a.cfg.observers; len(obs) > 0 {
		rt.Observer = containObservers(obs, a.cfg.logger)
	}
	a.cfg.limitRuntime(rt)
	return rt
}

// lower makes the tool's spec, checking what only the whole tool reveals.
func (t *Tool) lower(rt *engine.Runtime, policies []compiledPolicy) *engine.ToolSpec {
	defs := t.allActions()
	if len(defs) == 0 {
		panic(fmt.Sprintf("vurb: tool %q has no actions; add one with vurb.Query, vurb.Action or vurb.Mutation", t.name))
	}
	t.checkCommon(defs)
	spec := t.wireSpec()
	spec.Actions = make([]*engine.ActionSpec, len(defs))
	for i, def := range defs {
		spec.Actions[i] = def.lower(rt, policies)
	}
	return spec
}

// lower makes the action's spec: its tags and deadline resolved across
// its levels, its chain composed, its state-sync rule resolved.
func (d *ActionDef) lower(rt *engine.Runtime, policies []compiledPolicy) *engine.ActionSpec {
	t, g, app := d.tool, d.group, d.tool.app
	layers := [][]Middleware{app.middleware, t.middleware, nil, d.middleware}
	// The tool and its group are organisational groups of the model too:
	// WithIncludeGroups selects them through these reserved tags.
	tags := [][]string{t.tags, d.tags, nil, {groupTagPrefix + t.name}}
	if g != nil {
		layers[2], tags[2] = g.middleware, g.tags
		tags[3] = append(tags[3], groupTagPrefix+t.name+"."+g.name)
	}
	timeout := firstPositive(d.timeout, t.timeout, app.cfg.timeout)
	key := d.canonicalKey()
	endpoint, output := d.present() // presenter_action.go
	spec := &engine.ActionSpec{
		Key:          d.key,
		Description:  d.description,
		Title:        d.title,
		Tags:         lo.Flatten(tags),
		ReadOnly:     d.sem == semQuery,
		Destructive:  d.sem == semMutation,
		Idempotent:   d.idempotent,
		OpenWorld:    d.openWorld,
		Annotations:  d.annotations,
		In:           d.codec,
		OutputSchema: output,
		Headers:      d.headers,
		Decode:       d.decode,
		Handler:      lowerHandler(chain(endpoint, lo.Flatten(layers))),
		Timeout:      timeout,
		Sync:         resolveSync(key, d.cache, d.invalidates, policies, app.cfg.defaultCache),
		Scopes:       d.requiredScopes(),
		Limits:       d.lowerLimits(),
		Hint:         d.hint,
		AlwaysLoad:   d.alwaysLoad,
		Finder:       d.isFinder,
	}
	return spec
}

// checkCommon makes sure every action of a tool with common fields has them
// all: grouped exposition lists them once for every action.
func (t *Tool) checkCommon(defs []*ActionDef) {
	if t.common == nil {
		return
	}
	common := t.app.codecFor(t.common).Fields()
	for _, def := range defs {
		have := lo.SliceToMap(def.codec.Fields(), func(f schema.Field) (string, bool) { return f.Name, true })
		for _, f := range common {
			if !have[f.Name] {
				panic(fmt.Sprintf("vurb: action %q of tool %q lacks the common field %q: embed %s in its input %s",
					def.key, t.name, f.Name, t.common, def.codec.Type()))
			}
		}
	}
}

// firstPositive is the first of ds above zero: a level that sets no
// deadline of its own defers to the enclosing one.
func firstPositive(ds ...time.Duration) time.Duration {
	for _, d := range ds {
		if d > 0 {
			return d
		}
	}
	return 0
}
