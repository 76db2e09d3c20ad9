package vurb

import (
	"fmt"
	"strings"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/glob"
)

// CacheControl is a cache directive a model reads in a tool's description,
// in the words HTTP taught it: whether what the tool returns can be reused.
type CacheControl string

const (
	// Immutable marks results that never change (country codes, a closed
	// invoice): the model may reuse them for the whole conversation.
	Immutable CacheControl = "immutable"
	// NoStore marks results that go stale at once (a live queue, a
	// balance): the model should call again rather than trust an earlier
	// answer.
	NoStore CacheControl = "no-store"
)

// Policy sets state-sync behaviour for every action whose canonical dotted
// key (tasks.update, admin.users.deactivate) matches Match, whatever the
// exposition. In Match, "*" matches one dot segment and "**" zero or more.
// Policies are tried in order and the first that matches wins.
type Policy struct {
	Match string
	// CacheControl decorates the matching actions' descriptions.
	CacheControl CacheControl
	// Invalidates lists the key patterns whose earlier results a
	// successful call of a matching action makes stale.
	Invalidates []string
}

// compiledPolicy is a Policy with its pattern compiled.
type compiledPolicy struct {
	Policy
	pattern *glob.Pattern
}

// compilePolicies validates policies; it panics with the first problem.
func compilePolicies(policies []Policy, defaultCache CacheControl) []compiledPolicy {
	checkDirective := func(cc CacheControl, where string) {
		if cc != "" && cc != Immutable && cc != NoStore {
			panic(fmt.Sprintf("vurb: %s: unknown cache directive %q; use vurb.Immutable or vurb.NoStore", where, cc))
		}
	}
	checkDirective(defaultCache, "WithDefaultCacheControl")
	out := make([]compiledPolicy, len(policies))
	for i, p := range policies {
		where := fmt.Sprintf("policy %d (Match %q)", i+1, p.Match)
		pattern, err := glob.Compile(p.Match)
		if err != nil {
			panic(fmt.Sprintf("vurb: %s: %v", where, err))
		}
		checkDirective(p.CacheControl, where)
		mustPatterns(p.Invalidates, where)
		for j, earlier := range out[:i] {
			if earlier.pattern.Covers(pattern) {
				panic(fmt.Sprintf("vurb: %s never applies: policy %d (Match %q) matches every key it matches, and the first match wins; put the narrower policy first, or drop it", where, j+1, earlier.Match))
			}
		}
		out[i] = compiledPolicy{Policy: p, pattern: pattern}
	}
	return out
}

func mustPatterns(patterns []string, where string) {
	for _, s := range patterns {
		if _, err := glob.Compile(s); err != nil {
			panic(fmt.Sprintf("vurb: %s: invalid invalidation pattern: %v", where, err))
		}
	}
}

// resolveSync is the state-sync rule of the action with canonical key:
// the action's own settings first, then the first matching policy, then the
// app default for the cache directive.
func resolveSync(key string, own CacheControl, ownInvalidates []string, policies []compiledPolicy, defaultCache CacheControl) engine.SyncRule {
	cache, invalidates := own, ownInvalidates
	for _, p := range policies {
		if !p.pattern.Match(key) {
			continue
		}
		if cache == "" {
			cache = p.CacheControl
		}
		if len(invalidates) == 0 {
			invalidates = p.Invalidates
		}
		break
	}
	if cache == "" {
		cache = defaultCache
	}
	r := engine.SyncRule{Cache: string(cache), Invalidates: invalidates}
	if len(invalidates) > 0 {
		r.Notice = invalidationNotice(key, invalidates)
	}
	return r
}

// invalidationNotice is the last text block of a successful invalidating
// call's result: after the result, which a client that shows one block
// shows.
func invalidationNotice(cause string, patterns []string) string {
	return "[System: Cache invalidated for " + strings.Join(patterns, ", ") + " — caused by " + cause + "]"
}
