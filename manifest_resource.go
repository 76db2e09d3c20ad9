package vurb

import (
	"context"
	"sync"

	"github.com/vurb-go/vurb/internal/edge"
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
// action the server hides. Each caller reads the manifest of what it
// sees: an action its token lacks the scopes for (RequireScopes) or its
// class does not see (WithVisibility) is not in it, as it is not in its
// tools/list. WithScopeChallenges keeps the former in lists: pass it here too,
// and they stay in the manifest. Each manifest is computed from the built
// app at the first read by a caller who sees it, and kept for the next
// ones; past 64 kinds of caller, a kept one gives way, to be computed
// again when asked for.
func (a *App) PublishManifest(opts ...ServeOption) *ResourceDef {
	// WithScopeChallenges, HTTP's own, decides what lists show: the manifest
	// shows what they do.
	edge.MustNotNeedHTTP("PublishManifest", opts, "WithScopeChallenges")
	docs := &manifests{app: a, opts: opts}
	return Resource(a, manifest.URI, "vurb-manifest", func(ctx context.Context) (Contents, error) {
		data, err := docs.of(CallerFrom(ctx))
		return Contents{Text: string(data)}, err
	}).Title("vurb manifest").
		Describe("What this server offers, as `vurb manifest` writes it: tools in both expositions, actions, groups, prompts and resources.").
		MIMEType("application/json")
}

// manifests are the published manifests, one per view of the app's
// actions that its callers have.
type manifests struct {
	app  *App
	opts []ServeOption
	once sync.Once
	list edge.Lister

	mu   sync.Mutex
	docs map[string][]byte
}

// of returns the manifest of what c sees.
func (m *manifests) of(c *Caller) ([]byte, error) {
	m.once.Do(func() { m.list = m.app.site().Lister(m.opts) })
	o := c.origin()
	key, allow := m.list(&o)
	m.mu.Lock()
	data, ok := m.docs[key]
	m.mu.Unlock()
	if ok {
		return data, nil
	}
	data, err := manifest.Of(m.app.modelOf(allow, nil)).Marshal()
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.docs == nil {
		m.docs = map[string][]byte{}
	}
	if len(m.docs) >= maxManifests {
		for k := range m.docs { // any one: the views callers keep asking for come back
			delete(m.docs, k)
			break
		}
	}
	m.docs[key] = data
	return data, nil
}

// maxManifests bounds the manifests kept: each is a whole document (tens
// of KB for a large app), and a caller who may ask for any set of scopes
// could otherwise make many.
const maxManifests = 64
