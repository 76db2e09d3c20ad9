package edge

import (
	"slices"

	"github.com/vurb-go/vurb/internal/engine"
)

// MustNotNeedHTTP panics, naming them, when opts hold HTTP settings other
// than those allowed: where (NewServer, PublishManifest, ...) has no HTTP
// to honour them, and would otherwise ignore them silently.
func MustNotNeedHTTP(where string, opts []ServeOption, allowed ...string) {
	cfg := newServeConfig(opts)
	cfg.httpOnly = slices.DeleteFunc(cfg.httpOnly, func(s string) bool { return slices.Contains(allowed, s) })
	cfg.mustNotNeedHTTP(where)
}

// A Lister says, for the caller of an origin, which actions a server served
// with given options lists: key names the caller's view (callers with the
// same key see the same actions), allow tests an action (nil: all).
type Lister func(o *engine.Origin) (key string, allow func(*engine.Endpoint) bool)

// Lister is what a server served with opts lists to each caller, for what
// is computed per caller outside a server (the published manifest).
func (a *Site) Lister(opts []ServeOption) Lister {
	cfg := newServeConfig(opts)
	vs := a.views(&cfg)
	var base func(*engine.Endpoint) bool
	if cfg.filters() {
		base = func(ep *engine.Endpoint) bool { return cfg.allows(ep.Tags()) }
	}
	return func(o *engine.Origin) (string, func(*engine.Endpoint) bool) {
		if vs == nil {
			return "", base
		}
		class := ""
		if vs.class != nil {
			class = vs.class(o)
		}
		key, permits := vs.listed(class, o.Token)
		return key, vs.shows(class, permits)
	}
}
