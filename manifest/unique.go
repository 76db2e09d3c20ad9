package manifest

import (
	"errors"
	"fmt"
)

// Unique returns an error naming every entity m lists twice: two tools of
// one name (in the served exposition or an alternate), two actions of one
// key, two prompts, two resources of one URI, two templates of one URI
// template, two groups of one fully qualified name, two expositions, two
// arguments of one prompt. A server cannot serve two tools of one name, so
// such a manifest describes no server; and since Diff, LockOf and Merge
// index entities by name, they would each keep one of the two: a manifest
// listing delete_everything twice, the second destructive, would match a
// lock and diff as unchanged. Parse refuses it with this error.
func Unique(m Manifest) error {
	var errs []error
	dup := func(what string, names []string) {
		seen := make(map[string]bool, len(names))
		for _, n := range names {
			if seen[n] {
				errs = append(errs, fmt.Errorf("%s %q is listed twice: a server lists each name once, and a diff or lock would see only one of them", what, n))
			}
			seen[n] = true
		}
	}
	dup("tool", keys(m.Tools, func(t Tool) string { return t.Name }))
	dup("action", keys(m.Actions, func(a Action) string { return a.Key }))
	for _, p := range m.Prompts {
		dup(fmt.Sprintf("prompt %q: argument", p.Name), keys(p.Arguments, func(a Argument) string { return a.Name }))
	}
	dup("prompt", keys(m.Prompts, func(p Prompt) string { return p.Name }))
	dup("resource", keys(m.Resources, func(r Resource) string { return r.URI }))
	dup("resource template", keys(m.ResourceTemplates, func(r Resource) string { return r.URITemplate }))
	dup("group", keys(m.Groups, func(g Group) string { return g.FQN }))
	dup("skill", keys(m.Skills, func(s Skill) string { return s.URI }))
	dup("exposition", keys(m.Alternates, func(e Exposition) string { return e.Name }))
	for _, e := range m.Alternates {
		dup(fmt.Sprintf("exposition %q: tool", e.Name), keys(e.Tools, func(t Tool) string { return t.Name }))
	}
	return errors.Join(errs...)
}

func keys[T any](xs []T, key func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = key(x)
	}
	return out
}
