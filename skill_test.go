package vurb_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/skills"
	"github.com/vurb-go/vurb/vurbtest"
)

// skillTree is a skills folder as a developer lays it out: a skill with
// references and templates, a skill under a prefix with a skill nested in
// it, a file outside any skill and a dotfile, which are not served.
func skillTree() fstest.MapFS {
	return fstest.MapFS{
		"skills/pdf/SKILL.md":                    {Data: []byte("---\nname: pdf\ndescription: Fill PDF forms\nmetadata:\n  version: \"2.1\"\n---\n# PDF\nSee references/FORMS.md.\n")},
		"skills/pdf/references/FORMS.md":         {Data: []byte("# Forms\n")},
		"skills/pdf/templates/invoice.md":        {Data: []byte("Invoice {n}\n")},
		"skills/pdf/templates/logo.png":          {Data: []byte{0x89, 'P', 'N', 'G', 0xff, 0x00}},
		"skills/pdf/.DS_Store":                   {Data: []byte("junk")},
		"skills/acme/refunds/SKILL.md":           {Data: []byte("---\nname: refunds\ndescription: Refund customers\nlicense: MIT\n---\nRefund.\n")},
		"skills/acme/refunds/email.md":           {Data: []byte("Dear customer\n")},
		"skills/acme/refunds/eu/SKILL.md":        {Data: []byte("---\nname: eu\ndescription: EU refunds\n---\nEU.\n")},
		"skills/acme/refunds/eu/rules/vat.md":    {Data: []byte("VAT rules\n")},
		"skills/README.md":                       {Data: []byte("not a skill's")},
		"skills/.hidden/SKILL.md":                {Data: []byte("---\nname: hidden\ndescription: never\n---\n")},
		"skills/acme/refunds/eu/.cache/note.txt": {Data: []byte("skipped")},
	}
}

// digest is a file's SEP-2640 digest, computed here independently.
func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func skillsApp(opts ...vurb.Option) *vurb.App {
	app := vurb.New(append([]vurb.Option{vurb.WithName("skills")}, opts...)...)
	vurb.Skills(app, skillTree(), "skills")
	return app
}

func uris(entries []*skills.Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.URI)
	}
	return out
}

// Every skill, served on both generations over memory and HTTP: its
// entry (front matter and a complete file list with digests and sizes),
// skills/get, the files themselves, resources/list and the folders.
func TestSkillsServed(t *testing.T) {
	tree := skillTree()
	for _, rev := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
		for _, tr := range []struct {
			name string
			opts []vurbtest.Option
		}{
			{"memory", nil},
			{"http", []vurbtest.Option{vurbtest.OverHTTP()}},
			{"http-stateless", []vurbtest.Option{vurbtest.OverHTTP(), vurbtest.Serve(vurb.WithStateless())}},
		} {
			t.Run(rev+"/"+tr.name, func(t *testing.T) {
				is := is.New(t)
				c := vurbtest.New(t, skillsApp(), append(tr.opts, vurbtest.Protocol(rev))...)

				caps := c.Session().InitializeResult().Capabilities
				is.Equal(caps.Extensions[skills.Extension], map[string]any{"directoryRead": true})
				is.True(caps.Resources != nil) // the extension needs it

				entries := c.Skills()
				is.Equal(uris(entries), []string{"skill://acme/refunds/SKILL.md", "skill://acme/refunds/eu/SKILL.md", "skill://pdf/SKILL.md"})
				refunds, eu, pdf := entries[0], entries[1], entries[2]
				is.Equal(refunds.Frontmatter, map[string]any{"name": "refunds", "description": "Refund customers", "license": "MIT"})
				is.Equal(pdf.Frontmatter, map[string]any{"name": "pdf", "description": "Fill PDF forms", "metadata": map[string]any{"version": "2.1"}})
				// Complete: SKILL.md first, a nested skill's files in its enclosing skill's too.
				is.Equal(refunds.Resources, []skills.Resource{
					file(tree, "skills/acme/refunds/SKILL.md", "skill://acme/refunds/SKILL.md"),
					file(tree, "skills/acme/refunds/email.md", "skill://acme/refunds/email.md"),
					file(tree, "skills/acme/refunds/eu/SKILL.md", "skill://acme/refunds/eu/SKILL.md"),
					file(tree, "skills/acme/refunds/eu/rules/vat.md", "skill://acme/refunds/eu/rules/vat.md"),
				})
				is.Equal(eu.Resources, []skills.Resource{
					file(tree, "skills/acme/refunds/eu/SKILL.md", "skill://acme/refunds/eu/SKILL.md"),
					file(tree, "skills/acme/refunds/eu/rules/vat.md", "skill://acme/refunds/eu/rules/vat.md"),
				})
				is.Equal(len(pdf.Resources), 4)

				got, err := c.GetSkillResult("skill://pdf/SKILL.md")
				is.NoErr(err)
				is.Equal(got.Skill, pdf)
				is.Equal(got.TTLMs, 5*60*1000) // the default list TTL, 5 min
				is.Equal(got.CacheScope, "public")
				wantType := ""
				if rev == vurbtest.Sessionless {
					wantType = "complete"
				}
				is.Equal(got.ResultType, wantType)

				files := c.ReadSkill(pdf) // each file checked against its digest and size
				is.Equal(files["skill://pdf/templates/logo.png"], tree["skills/pdf/templates/logo.png"].Data)
				read := c.ReadResource("skill://pdf/SKILL.md")
				is.Equal(read.Contents[0].MIMEType, "text/markdown")

				// resources/list: each SKILL.md, named and described by its
				// front matter; not the other files.
				var listed []string
				for _, r := range c.Resources() {
					listed = append(listed, fmt.Sprintf("%s %s %s %q %d", r.URI, r.MIMEType, r.Name, r.Description, r.Size))
				}
				is.Equal(listed, []string{
					fmt.Sprintf("skill://acme/refunds/SKILL.md text/markdown refunds \"Refund customers\" %d", len(tree["skills/acme/refunds/SKILL.md"].Data)),
					fmt.Sprintf("skill://acme/refunds/eu/SKILL.md text/markdown eu \"EU refunds\" %d", len(tree["skills/acme/refunds/eu/SKILL.md"].Data)),
					fmt.Sprintf("skill://pdf/SKILL.md text/markdown pdf \"Fill PDF forms\" %d", len(tree["skills/pdf/SKILL.md"].Data)),
				})

				is.Equal(children(c.ReadDirectory("skill://pdf")), []string{
					"SKILL.md text/markdown", "references inode/directory", "templates inode/directory"})
				is.Equal(children(c.ReadDirectory("skill://pdf/templates/")), []string{"invoice.md text/markdown", "logo.png image/png"})
				is.Equal(children(c.ReadDirectory("skill://acme/refunds")), []string{
					"SKILL.md text/markdown", "email.md text/markdown", "eu inode/directory"})
				is.Equal(code(c.ReadDirectoryError("skill://pdf/SKILL.md")), int64(jsonrpc.CodeInvalidParams))
				is.True(strings.Contains(c.ReadDirectoryError("skill://pdf/SKILL.md").Error(), "is a file, not a directory resource"))
				is.Equal(code(c.ReadDirectoryError("skill://acme")), int64(jsonrpc.CodeInvalidParams)) // a prefix, not a skill's folder

				err = c.GetSkillError("skill://nope/SKILL.md")
				is.Equal(code(err), int64(jsonrpc.CodeInvalidParams))
				is.True(strings.Contains(err.Error(), `no skill is served at "skill://nope/SKILL.md"`))
				is.Equal(code(c.GetSkillError("skill://pdf/references/FORMS.md")), int64(jsonrpc.CodeInvalidParams)) // a file, not a skill
				c.ReadResourceError("skill://.hidden/SKILL.md")
				c.ReadResourceError("skill://pdf/.DS_Store")
			})
		}
	}
}

func file(tree fstest.MapFS, name, uri string) skills.Resource {
	data := tree[name].Data
	return skills.Resource{URI: uri, Digest: digest(data), Size: int64(len(data))}
}

func children(rs []*mcp.Resource) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name+" "+r.MIMEType)
	}
	return out
}

// code is a protocol error's JSON-RPC code, 0 for another error.
func code(err error) int64 {
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return rpc.Code
	}
	return 0
}

// A skill declared in code, its files added one by one.
func TestSkillInCode(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	s := vurb.Skill(app, "ops/deploy", "---\nname: deploy\ndescription: Deploy the service\n---\nRun scripts/deploy.sh.\n").
		File("scripts/deploy.sh", []byte("#!/bin/sh\necho deploy\n")).
		File("docs/my notes.md", []byte("spaces are escaped"))
	is.Equal(s.URI(), "skill://ops/deploy/SKILL.md")
	is.Equal(s.Name(), "deploy")
	is.Equal(s.Path(), "ops/deploy")
	c := vurbtest.New(t, app)
	entry := c.GetSkill(s.URI())
	is.Equal(uris([]*skills.Entry{entry}), []string{"skill://ops/deploy/SKILL.md"})
	var files []string
	for _, r := range entry.Resources {
		files = append(files, r.URI)
	}
	is.Equal(files, []string{"skill://ops/deploy/SKILL.md", "skill://ops/deploy/docs/my%20notes.md", "skill://ops/deploy/scripts/deploy.sh"})
	read := c.ReadSkill(entry)
	is.Equal(string(read["skill://ops/deploy/docs/my%20notes.md"]), "spaces are escaped")
	is.Equal(children(c.ReadDirectory("skill://ops/deploy/docs")), []string{"my notes.md text/markdown"})
	is.Equal(c.ReadResource("skill://ops/deploy/scripts/deploy.sh").Contents[0].MIMEType, "text/x-shellscript")
}

// An app without skills declares no extension and answers no skills
// method.
func TestNoSkillsNoExtension(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	vurb.Query(app, "ping", func(context.Context, struct{}) (string, error) { return "pong", nil })
	c := vurbtest.New(t, app)
	_, declared := c.Session().InitializeResult().Capabilities.Extensions[skills.Extension]
	is.True(!declared)
	is.Equal(code(c.GetSkillError("skill://x/SKILL.md")), int64(jsonrpc.CodeMethodNotFound))
}

// Definition mistakes panic where they are made, saying what to fix.
func TestSkillDefinitionPanics(t *testing.T) {
	good := "---\nname: deploy\ndescription: Deploy\n---\n"
	for _, tc := range []struct {
		name string
		def  func(app *vurb.App)
		want string
	}{
		{"path", func(app *vurb.App) { vurb.Skill(app, "Ops/deploy", good) }, `vurb: skill path "Ops/deploy": first segment`},
		{"no front matter", func(app *vurb.App) { vurb.Skill(app, "deploy", "# Deploy") }, `vurb: skill "deploy": SKILL.md: it must begin with YAML front matter`},
		{"name is not the folder", func(app *vurb.App) { vurb.Skill(app, "ops/ship", good) }, `name "deploy" must be the last segment of the skill's path "ops/ship"`},
		{"twice", func(app *vurb.App) { vurb.Skill(app, "deploy", good); vurb.Skill(app, "deploy", good) }, `vurb: skill "deploy" is already declared`},
		{"file path", func(app *vurb.App) { vurb.Skill(app, "deploy", good).File("../x", nil) }, `file "../x": it must be a clean relative path`},
		{"file SKILL.md", func(app *vurb.App) { vurb.Skill(app, "deploy", good).File("SKILL.md", nil) }, "SKILL.md is the skill's own"},
		{"file twice", func(app *vurb.App) { vurb.Skill(app, "deploy", good).File("a.md", nil).File("a.md", nil) }, "skill://deploy/a.md is already a file of skill \"deploy\""},
		{"nested file clash", func(app *vurb.App) {
			vurb.Skill(app, "ops", "---\nname: ops\ndescription: Ops\n---\n").File("deploy/SKILL.md", nil)
			vurb.Skill(app, "ops/deploy", good)
		}, `skill "ops/deploy": skill://ops/deploy/SKILL.md is already a file of skill "ops"`},
		{"file in a nested skill's folder", func(app *vurb.App) {
			ops := vurb.Skill(app, "ops", "---\nname: ops\ndescription: Ops\n---\n")
			vurb.Skill(app, "ops/deploy", good).RequireScopes("admin")
			ops.File("deploy/keys.md", nil)
		}, `skill "ops": file "deploy/keys.md" lies in the folder of skill "ops/deploy", nested in it: ` +
			`a file belongs to the innermost skill whose folder holds it, which alone decides who reads it; add it to "ops/deploy"`},
		{"nested skill over a file", func(app *vurb.App) {
			vurb.Skill(app, "ops", "---\nname: ops\ndescription: Ops\n---\n").File("deploy/keys.md", nil)
			vurb.Skill(app, "ops/deploy", good)
		}, `skill "ops/deploy": its folder holds skill://ops/deploy/keys.md, a file of skill "ops": ` +
			`a file belongs to the innermost skill whose folder holds it, which alone decides who reads it; add it to "ops/deploy"`},
		{"too many files", func(app *vurb.App) {
			s := vurb.Skill(app, "deploy", good)
			for i := range skills.MaxFiles {
				s.File(fmt.Sprintf("f%d", i), nil)
			}
		}, `skill "deploy" would hold 513 files`},
		{"nested skills add up", func(app *vurb.App) {
			vurb.Skill(app, "ops", "---\nname: ops\ndescription: Ops\n---\n").File("big", make([]byte, skills.MaxBytes/2))
			vurb.Skill(app, "ops/deploy", good).File("big", make([]byte, skills.MaxBytes/2))
		}, `skill "ops" would hold 4 files of`},
		{"scope", func(app *vurb.App) { vurb.Skill(app, "deploy", good).RequireScopes("a b") }, `skill deploy RequireScopes: "a b" is not an OAuth scope`},
		{"after build", func(app *vurb.App) { app.Build(); vurb.Skill(app, "deploy", good) }, "the app is built and frozen"},
		{"empty folder", func(app *vurb.App) { vurb.Skills(app, fstest.MapFS{"skills/x.md": {}}, "skills") }, `vurb: Skills("skills"): no SKILL.md under it`},
		{"missing folder", func(app *vurb.App) { vurb.Skills(app, fstest.MapFS{}, "skills") }, `vurb: Skills("skills"): open skills`},
		{"bad SKILL.md in a tree", func(app *vurb.App) {
			vurb.Skills(app, fstest.MapFS{"skills/deploy/SKILL.md": {Data: []byte("---\nname: deploy\n---\n")}}, "skills")
		}, `vurb: skills/deploy/SKILL.md: its front matter needs "description"`},
		{"symbolic link", func(app *vurb.App) {
			vurb.Skills(app, fstest.MapFS{"s/deploy/SKILL.md": {Data: []byte(good)}, "s/deploy/l": {Mode: fs.ModeSymlink}}, "s")
		}, "s/deploy/l is a symbolic link"},
		{"SKILL.md at the root", func(app *vurb.App) { vurb.Skills(app, fstest.MapFS{"SKILL.md": {Data: []byte(good)}}, ".") }, "a SKILL.md at the root has no path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				got := fmt.Sprint(recover())
				if !strings.Contains(got, tc.want) {
					t.Fatalf("panic %q; want it to contain %q", got, tc.want)
				}
			}()
			tc.def(vurb.New())
		})
	}
}

// A folder given to Skills that is itself a skill takes its name from
// the folder.
func TestSkillsFolderIsASkill(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	got := vurb.Skills(app, fstest.MapFS{"x/deploy/SKILL.md": {Data: []byte("---\nname: deploy\ndescription: D\n---\n")}}, "x/deploy")
	is.Equal(len(got), 1)
	is.Equal(got[0].URI(), "skill://deploy/SKILL.md")
}
