package vurb

import (
	"context"
	"sync"

	"github.com/vurb-go/vurb/manifest"
)

// PublishManifest declares a resource at manifest.URI ("vurb://manifest")
// whose contents are the app's manifest (application/json): its tools in
// both expositions, its actions, groups, prompts and resources. Tools that
// see only the wire, such as `vurb inspect`, read it to show what
// tools/list cannot: the other exposition, the actions behind a grouped
// tool, the categories.
//
// The manifest describes what opts select (IncludeTags, IncludeGroups,
// ...): pass the options the app is served with, so that it names no
// action the server hides. It is computed once, at the first read, from
// the built app.
func (a *App) PublishManifest(opts ...ServeOption) *ResourceDef {
	cfg := newServeConfig(opts)
	cfg.mustNotNeedHTTP("PublishManifest")
	doc := sync.OnceValues(func() ([]byte, error) {
		return manifest.Of(a.modelOf(cfg.allowFunc(), nil)).Marshal()
	})
	return Resource(a, manifest.URI, "vurb-manifest", func(context.Context) (Contents, error) {
		data, err := doc()
		return Contents{Text: string(data)}, err
	}).Title("vurb manifest").
		Describe("What this server offers, as `vurb manifest` writes it: tools in both expositions, actions, groups, prompts and resources.").
		MIMEType("application/json")
}
