package skill

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/skills"
)

// Who sees what of skills nested in skills (skill://acme/vault inside
// skill://acme): every file belongs to the innermost skill whose folder
// holds it, and that skill alone decides who reads it. What it asks
// includes what the skills it is nested in ask, so access never widens
// going down the tree:
//
//   - a caller sees a skill when the visibility rule shows it that skill
//     and every skill it is nested in: hiding a skill hides what is nested
//     in it, which lies in its folder;
//   - a skill needs the app's scopes, those of every skill it is nested in,
//     and its own (Info.Scopes);
//   - a skill the caller does not see, and each of its files and folders,
//     is answered as a URI never served; one it sees without the scopes is
//     refused, naming them, and left out of every list;
//   - an enclosing skill's entry and folders list a nested skill's files
//     and folders only to a caller who may read them.
//
// Once a file was held by every skill it lay in, and readable by a caller
// who could read any of them: the vault's secrets were the enclosing
// skill's to give away (issue #43).

// Info is what a visibility rule knows of a skill.
type Info struct {
	Path string // "acme/billing/refunds"
	Name string // "refunds"
	URI  string // its SKILL.md's
	Tags []string
	// Scopes are those the skill needs: the app's, those of the skills it
	// is nested in, and its own.
	Scopes []string
}

// seenBy is which skills the caller of o sees, indexed by position: those
// the visibility rule shows its class, each with every skill it is nested
// in; nil when it sees them all.
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
	for i, s := range x.skills { // a skill comes after those it is nested in
		seen[i] = (s.parent == nil || seen[s.parent.pos]) && x.visible(class, s.info)
	}
	x.mu.Lock()
	if len(x.classes) < x.maxViews {
		x.classes[class] = seen
	}
	x.mu.Unlock()
	return seen
}

// access is what the caller of o may do with the skill s, one of its
// files or a folder only its files lie in: unknown when it does not see
// s; otherwise the scopes its token lacks of s's (nil when it has them
// all).
func access(s *indexedSkill, seen []bool, o *engine.Origin) (known bool, missing []string) {
	if seen != nil && !seen[s.pos] {
		return false, nil
	}
	return true, engine.Missing(s.scopes, o.Token)
}

// granted reports whether the caller may read s and lists it: it sees s
// and holds its scopes.
func granted(s *indexedSkill, seen []bool, o *engine.Origin) bool {
	known, missing := access(s, seen, o)
	return known && missing == nil
}

// dirAccess is access for a folder, which holds the files of the skills
// owners: known when the caller sees one of them, allowed when it may
// read one; else missing the scopes of the first it sees.
func dirAccess(owners []*indexedSkill, seen []bool, o *engine.Origin) (known bool, missing []string) {
	for _, s := range owners {
		k, m := access(s, seen, o)
		if k && m == nil {
			return true, nil
		}
		if k && !known {
			known, missing = true, m
		}
	}
	return known, missing
}

// listedChild reports whether a folder's listing shows c to the caller.
func listedChild(c dirChild, seen []bool, o *engine.Origin) bool {
	if c.file != nil {
		return granted(c.file.owner, seen, o)
	}
	known, missing := dirAccess(c.dir.owners, seen, o)
	return known && missing == nil
}

// entryFor is s's entry as the caller may see it: without the files of
// the nested skills it may not read. s's own entry, shared, when it may
// read them all.
func entryFor(s *indexedSkill, seen []bool, o *engine.Origin) *skills.Entry {
	var kept []skills.Resource
	for i, f := range s.files {
		if f.owner == s || granted(f.owner, seen, o) {
			if kept != nil {
				kept = append(kept, s.entry.Resources[i])
			}
			continue
		}
		if kept == nil {
			kept = make([]skills.Resource, i, len(s.files))
			copy(kept, s.entry.Resources[:i])
		}
	}
	if kept == nil {
		return s.entry
	}
	e := *s.entry
	e.Resources = kept
	return &e
}

// refused is the answer to a request for a skill whose scopes the
// caller's token lacks: a protocol error naming them, as for a prompt or
// a resource of an app that requires scopes.
func refused(rt *engine.Runtime, what string, missing []string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
		Message: fmt.Sprintf("%s: "+rt.Messages.MissingScopes, what, strings.Join(missing, " "))}
}

// skillScopes are the scopes a skill needs: outer's (the app's, or those
// of the skill it is nested in), then its own.
func skillScopes(outer, own []string) []string {
	out := slices.Clone(outer)
	for _, s := range own {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
