package skill

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/vurb-go/vurb/internal/engine"
)

// Info is what a visibility rule knows of a skill.
type Info struct {
	Path string // "acme/billing/refunds"
	Name string // "refunds"
	URI  string // its SKILL.md's
	Tags []string
	// Scopes are those the skill needs: the app's and its own.
	Scopes []string
}

// seenBy is which skills the caller of o sees by the visibility rule,
// indexed by position; nil when it sees them all.
func (x *skillIndex) seenBy(o *engine.Origin) []bool {
	if x.visible == nil {
		return nil
	}
	class := ""
	if x.class != nil {
		class = x.class(o)
	}
	x.mu.RLock()
	seen, ok := x.classes[class]
	x.mu.RUnlock()
	if ok {
		return seen
	}
	seen = make([]bool, len(x.skills))
	for i, s := range x.skills {
		seen[i] = x.visible(class, s.info)
	}
	x.mu.Lock()
	if len(x.classes) < x.maxViews {
		x.classes[class] = seen
	}
	x.mu.Unlock()
	return seen
}

// access is what a caller may do with a skill, a file or a folder that
// the skills owners hold: unknown when it sees none of them; otherwise
// the scopes its token lacks for every one it sees (nil when it has all
// of some owner's).
func access(owners []*indexedSkill, seen []bool, o *engine.Origin) (known bool, missing []string) {
	for _, s := range owners {
		if seen != nil && !seen[s.pos] {
			continue
		}
		m := engine.Missing(s.scopes, o.Token)
		if m == nil {
			return true, nil
		}
		if !known {
			known, missing = true, m
		}
	}
	return known, missing
}

// listed reports whether a list shows what owners hold to the caller:
// visible to it, scopes granted.
func listed(owners []*indexedSkill, seen []bool, o *engine.Origin) bool {
	known, missing := access(owners, seen, o)
	return known && missing == nil
}

// refused is the answer to a request for a skill whose scopes the
// caller's token lacks: a protocol error naming them, as for a prompt or
// a resource of an app that requires scopes.
func refused(rt *engine.Runtime, what string, missing []string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
		Message: fmt.Sprintf("%s: "+rt.Messages.MissingScopes, what, strings.Join(missing, " "))}
}

// skillScopes are the scopes a skill needs: the app's, then its own.
func skillScopes(app, own []string) []string {
	out := slices.Clone(app)
	for _, s := range own {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
