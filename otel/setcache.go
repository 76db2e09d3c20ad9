package vurbotel

import (
	"sync"

	"go.opentelemetry.io/otel/attribute"
)

// setKey is what a request's metric attributes are made of: requests that
// agree on it record under the same attribute set.
type setKey struct {
	method, tool, prompt, protocol string
	http                           bool
	key, errorType                 string
	active                         bool // the in-flight counter's set, not the histogram's
}

// maxCachedSets bounds the cache. Every value of a setKey is one the app
// or the go-sdk chose: the SDK's methods, the app's tools, prompts and
// actions (a name the app does not serve is otherName, see catalog),
// known revisions (see revision), and error types; so the sets are a few
// hundred, and no client can add one. The bound is a backstop for an app
// of very many tools: past it a set is made per request, as without the
// cache.
const maxCachedSets = 4096

// setCache keeps the metric attribute sets already made. attribute.NewSet
// sorts, deduplicates and allocates on every call; the sets of an app's
// requests are few and immutable, so each is made once and shared.
type setCache struct {
	sets sync.Map // setKey → attribute.Set
	n    int
	mu   sync.Mutex // guards n
}

// get returns the set for k, making it with mk the first time.
func (c *setCache) get(k setKey, mk func() attribute.Set) attribute.Set {
	if s, ok := c.sets.Load(k); ok {
		return s.(attribute.Set)
	}
	s := mk()
	c.mu.Lock()
	if c.n < maxCachedSets {
		if _, loaded := c.sets.LoadOrStore(k, s); !loaded {
			c.n++
		}
	}
	c.mu.Unlock()
	return s
}

// metricSet is r's operation-duration set, cached.
func (c *setCache) metricSet(r *requestInfo, key, errorType string) attribute.Set {
	return c.get(setKey{method: r.method, tool: r.tool, prompt: r.prompt, protocol: r.protocol, http: r.http, key: key, errorType: errorType},
		func() attribute.Set { return r.metricAttributes(key, errorType) })
}

// activeSet is r's in-flight counter set, cached.
func (c *setCache) activeSet(r *requestInfo) attribute.Set {
	return c.get(setKey{method: r.method, tool: r.tool, prompt: r.prompt, active: true},
		func() attribute.Set { return r.activeAttributes() })
}
