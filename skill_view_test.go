package vurb_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
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

// A nested skill's files are readable by a caller who sees either skill.
func TestNestedSkillFilesFollowEitherSkill(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithSkillVisibility(func(_ string, s vurb.SkillInfo) bool { return s.Path == "ops/eu" }))
	vurb.Skill(app, "ops", "---\nname: ops\ndescription: Ops\n---\n").File("top.md", []byte("top"))
	vurb.Skill(app, "ops/eu", "---\nname: eu\ndescription: EU ops\n---\n").File("vat.md", []byte("vat"))
	c := vurbtest.New(t, app)
	is.Equal(uris(c.Skills()), []string{"skill://ops/eu/SKILL.md"})
	c.ReadResource("skill://ops/eu/vat.md")
	c.ReadResourceError("skill://ops/top.md")
	is.Equal(children(c.ReadDirectory("skill://ops/eu")), []string{"SKILL.md text/markdown", "vat.md text/markdown"})
	c.ReadDirectoryError("skill://ops")
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
	first, err := mcp.CallCustomMethod[*vurb.ListSkillsParams, *vurb.ListSkillsResult](context.Background(), c.Session(), vurb.MethodListSkills, &vurb.ListSkillsParams{})
	is.NoErr(err)
	is.Equal(len(first.Skills), 50)
	is.True(first.NextCursor != "")
	for _, bad := range []string{"nope", strings.Repeat("x", 5000), "dnVyYjo5OTk"} { // the last: "vurb:999"
		_, err := mcp.CallCustomMethod[*vurb.ListSkillsParams, *vurb.ListSkillsResult](context.Background(), c.Session(), vurb.MethodListSkills,
			&vurb.ListSkillsParams{Cursor: bad})
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
