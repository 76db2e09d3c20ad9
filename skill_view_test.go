package vurb_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/skills"
	"github.com/vurb-go/vurb/vurbtest"
)

// guardedSkills is an app with a skill only admins see, a skill that
// needs a scope, and one for everyone.
func guardedSkills() *vurb.App {
	app := vurb.New(
		vurb.WithVisibility(func(c *vurb.Caller) string {
			if c.Subject() == "root" {
				return "admin"
			}
			return ""
		}, func(string, vurb.ActionInfo) bool { return true }),
		vurb.WithSkillVisibility(func(class string, s vurb.SkillInfo) bool {
			return class == "admin" || !strings.HasPrefix(s.Path, "admin/")
		}),
	)
	vurb.Skill(app, "admin/ops", "---\nname: ops\ndescription: Operate the fleet\n---\n").File("runbook.md", []byte("restart"))
	vurb.Skill(app, "billing", "---\nname: billing\ndescription: Bill\n---\n").File("rates.md", []byte("rates")).RequireScopes("billing:read")
	vurb.Skill(app, "help", "---\nname: help\ndescription: Help\n---\n")
	return app
}

// A skill a caller does not see is unknown to it, on every path, exactly
// as a URI never served; a skill whose scopes it lacks is not listed, and
// asking for it is refused naming them.
func TestSkillVisibilityAndScopes(t *testing.T) {
	for _, rev := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
		for _, tr := range []struct {
			name string
			opts []vurbtest.Option
		}{{"memory", nil}, {"http", []vurbtest.Option{vurbtest.OverHTTP()}}} {
			t.Run(rev+"/"+tr.name, func(t *testing.T) {
				is := is.New(t)
				opts := append(tr.opts, vurbtest.Protocol(rev))
				anon := vurbtest.New(t, guardedSkills(), opts...)
				is.Equal(uris(anon.Skills()), []string{"skill://help/SKILL.md"})
				is.Equal(resourceURIs(anon.Resources()), []string{"skill://help/SKILL.md"})

				// Hidden: the answers of a URI never served, the URI aside.
				for _, pair := range [][2]string{
					{"skill://admin/ops/SKILL.md", "skill://zzzzz/ops/SKILL.md"},
					{"skill://admin/ops/runbook.md", "skill://zzzzz/ops/runbook.md"},
				} {
					hidden, never := anon.ReadResourceError(pair[0]), anon.ReadResourceError(pair[1])
					is.Equal(strings.ReplaceAll(hidden.Error(), pair[0], pair[1]), never.Error())
				}
				hidden, never := anon.GetSkillError("skill://admin/ops/SKILL.md"), anon.GetSkillError("skill://zzzzz/ops/SKILL.md")
				is.Equal(strings.ReplaceAll(hidden.Error(), "admin", "zzzzz"), never.Error())
				hidden, never = anon.ReadDirectoryError("skill://admin/ops"), anon.ReadDirectoryError("skill://zzzzz/ops")
				is.Equal(strings.ReplaceAll(hidden.Error(), "admin", "zzzzz"), never.Error())

				// Unscoped: refused, naming the scope.
				for _, err := range []error{anon.GetSkillError("skill://billing/SKILL.md"), anon.ReadResourceError("skill://billing/rates.md"),
					anon.ReadDirectoryError("skill://billing")} {
					is.Equal(code(err), int64(jsonrpc.CodeInvalidRequest))
					is.True(strings.Contains(err.Error(), "needs the OAuth scope(s) billing:read"))
				}

				// Per caller: private, stale at once.
				res, err := anon.GetSkillResult("skill://help/SKILL.md")
				is.NoErr(err)
				is.Equal(res.CacheScope, "private")
				is.Equal(res.TTLMs, 0)

				root := vurbtest.New(t, guardedSkills(), append(opts, vurbtest.Identity{Token: &auth.TokenInfo{UserID: "root", Scopes: []string{"billing:read"}}})...)
				is.Equal(uris(root.Skills()), []string{"skill://admin/ops/SKILL.md", "skill://billing/SKILL.md", "skill://help/SKILL.md"})
				is.Equal(resourceURIs(root.Resources()), []string{"skill://admin/ops/SKILL.md", "skill://billing/SKILL.md", "skill://help/SKILL.md"})
				is.Equal(len(root.ReadSkill(root.GetSkill("skill://billing/SKILL.md"))), 2)
				is.Equal(children(root.ReadDirectory("skill://admin/ops")), []string{"SKILL.md text/markdown", "runbook.md text/markdown"})

				// Scoped but not an admin.
				clerk := vurbtest.New(t, guardedSkills(), append(opts, vurbtest.Identity{Token: &auth.TokenInfo{UserID: "clerk", Scopes: []string{"billing:read"}}})...)
				is.Equal(uris(clerk.Skills()), []string{"skill://billing/SKILL.md", "skill://help/SKILL.md"})
			})
		}
	}
}

func resourceURIs(rs []*mcp.Resource) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.URI)
	}
	return out
}

// Hiding a skill hides every skill nested in it, which lies in its
// folder, whatever the rule says of the nested one: each reads as a URI
// never served.
func TestHiddenSkillHidesTheSkillsNestedInIt(t *testing.T) {
	is := is.New(t)
	var asked []string
	app := vurb.New(vurb.WithSkillVisibility(func(_ string, s vurb.SkillInfo) bool {
		asked = append(asked, s.Path)
		return s.Path == "ops/eu"
	}))
	vurb.Skill(app, "ops", "---\nname: ops\ndescription: Ops\n---\n").File("top.md", []byte("top"))
	vurb.Skill(app, "ops/eu", "---\nname: eu\ndescription: EU ops\n---\n").File("vat.md", []byte("vat"))
	c := vurbtest.New(t, app)
	is.Equal(len(c.Skills()), 0)
	is.Equal(len(c.Resources()), 0)
	for _, uri := range []string{"skill://ops/eu/vat.md", "skill://ops/eu/SKILL.md", "skill://ops/top.md"} {
		never := strings.Replace(uri, "ops/", "zzz/", 1)
		is.Equal(strings.ReplaceAll(c.ReadResourceError(uri).Error(), uri, never), c.ReadResourceError(never).Error())
	}
	is.Equal(strings.ReplaceAll(c.GetSkillError("skill://ops/eu/SKILL.md").Error(), "ops", "zzz"), c.GetSkillError("skill://zzz/eu/SKILL.md").Error())
	is.Equal(strings.ReplaceAll(c.ReadDirectoryError("skill://ops/eu").Error(), "ops", "zzz"), c.ReadDirectoryError("skill://zzz/eu").Error())
	is.Equal(asked, []string{"ops"}) // the rule is not asked about a skill nested in one it hides
}

// A nested skill needs its enclosing skills' scopes besides its own, and
// its visibility rule is told so; an enclosing skill's entry and folders
// list a nested skill's files and folders only to a caller who may read
// them, a folder holding nothing else included.
func TestNestedSkillNeedsItsEnclosingSkillsScopes(t *testing.T) {
	var told []string
	app := vurb.New(vurb.WithSkillVisibility(func(_ string, s vurb.SkillInfo) bool {
		told = append(told, s.Path+" "+strings.Join(s.Scopes, ","))
		return true
	}))
	vurb.Skill(app, "ops", "---\nname: ops\ndescription: Ops\n---\n").File("top.md", []byte("top")).RequireScopes("ops")
	vurb.Skill(app, "ops/eu", "---\nname: eu\ndescription: EU ops\n---\n").File("vat.md", []byte("vat"))
	vurb.Skill(app, "ops/eu/keys/vault", "---\nname: vault\ndescription: Keys\n---\n").File("k.md", []byte("k")).RequireScopes("admin")
	for _, tc := range []struct {
		scopes  []string
		skills  []string
		entry   []string // of ops/eu, when listed
		folders []string // of skill://ops/eu, when listed
		refused map[string]string
	}{
		{scopes: nil, refused: map[string]string{"skill://ops/eu/vat.md": "ops", "skill://ops/eu/keys/vault/k.md": "ops admin"}},
		{scopes: []string{"ops"}, skills: []string{"skill://ops/SKILL.md", "skill://ops/eu/SKILL.md"},
			entry: []string{"skill://ops/eu/SKILL.md", "skill://ops/eu/vat.md"}, folders: []string{"SKILL.md text/markdown", "vat.md text/markdown"},
			refused: map[string]string{"skill://ops/eu/keys/vault/k.md": "admin"}},
		{scopes: []string{"admin"}, refused: map[string]string{"skill://ops/eu/vat.md": "ops", "skill://ops/eu/keys/vault/k.md": "ops"}},
		{scopes: []string{"ops", "admin"}, skills: []string{"skill://ops/SKILL.md", "skill://ops/eu/SKILL.md", "skill://ops/eu/keys/vault/SKILL.md"},
			entry:   []string{"skill://ops/eu/SKILL.md", "skill://ops/eu/keys/vault/SKILL.md", "skill://ops/eu/keys/vault/k.md", "skill://ops/eu/vat.md"},
			folders: []string{"SKILL.md text/markdown", "keys inode/directory", "vat.md text/markdown"}},
	} {
		t.Run(strings.Join(tc.scopes, "+"), func(t *testing.T) {
			is := is.New(t)
			c := vurbtest.New(t, app, vurbtest.Identity{Token: &auth.TokenInfo{UserID: "u", Scopes: tc.scopes}})
			is.Equal(uris(c.Skills()), tc.skills)
			if tc.entry != nil {
				var files []string
				for _, r := range c.GetSkill("skill://ops/eu/SKILL.md").Resources {
					files = append(files, r.URI)
				}
				is.Equal(files, tc.entry)
				is.Equal(children(c.ReadDirectory("skill://ops/eu")), tc.folders)
			}
			for uri, missing := range tc.refused {
				err := c.ReadResourceError(uri)
				is.Equal(code(err), int64(jsonrpc.CodeInvalidRequest))
				is.True(strings.Contains(err.Error(), "needs the OAuth scope(s) "+missing)) // err
			}
			if !slices.Contains(tc.scopes, "admin") && slices.Contains(tc.scopes, "ops") {
				err := c.ReadDirectoryError("skill://ops/eu/keys") // holds only the vault's files
				is.True(strings.Contains(err.Error(), "needs the OAuth scope(s) admin"))
			}
		})
	}
	is.New(t).Equal(told, []string{"ops ops", "ops/eu ops", "ops/eu/keys/vault ops,admin"})
}

// skills/list pages: at most 50 entries a page, never splitting one; a
// cursor the server did not send is refused.
func TestSkillsPages(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	var want []string
	for i := range 120 {
		name := fmt.Sprintf("s%03d", i)
		vurb.Skill(app, name, fmt.Sprintf("---\nname: %s\ndescription: Skill %d\n---\n", name, i))
		want = append(want, "skill://"+name+"/SKILL.md")
	}
	c := vurbtest.New(t, app)
	is.Equal(uris(c.Skills()), want) // which lets the client send skills/list
	first, err := mcp.CallCustomMethod[*skills.ListParams, *skills.ListResult](context.Background(), c.Session(), skills.MethodList, &skills.ListParams{})
	is.NoErr(err)
	is.Equal(len(first.Skills), 50)
	is.True(first.NextCursor != "")
	for _, bad := range []string{"nope", strings.Repeat("x", 5000), "dnVyYjo5OTk"} { // the last: "vurb:999"
		_, err := mcp.CallCustomMethod[*skills.ListParams, *skills.ListResult](context.Background(), c.Session(), skills.MethodList,
			&skills.ListParams{Cursor: bad})
		is.Equal(code(err), int64(jsonrpc.CodeInvalidParams))
		is.True(len(err.Error()) < 300) // a long cursor is not echoed whole
	}
}

// A URI a client sends is echoed in errors 64 bytes at most.
func TestSkillErrorsEchoLittle(t *testing.T) {
	is := is.New(t)
	c := vurbtest.New(t, skillsApp())
	long := "skill://" + strings.Repeat("a", 100_000) + "/SKILL.md"
	for _, err := range []error{c.GetSkillError(long), c.ReadDirectoryError(long), c.ReadResourceError(long)} {
		is.True(len(err.Error()) < 400)
	}
}
