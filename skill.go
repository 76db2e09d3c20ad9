package vurb

import (
	"context"
	"io/fs"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb/internal/edge"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/skill"
	"github.com/vurb-go/vurb/skills"
)

// Skills (SEP-2640, the MCP Skills extension) are Agent Skills served by
// the server: a folder holding a SKILL.md (YAML front matter, then
// instructions) and the files it refers to, which a client lists
// (skills/list), confirms (skills/get) and reads file by file
// (resources/read of skill:// URIs) when its model needs them. vurb
// reads, checks and digests every file when the skill is declared; a
// served skill never changes, so its entry is computed once. This file
// holds the declarations; internal/skill checks, indexes and serves them;
// package skills holds the extension's wire, for clients and tests.

// SkillDef is one declared skill; its methods refine it until the app is
// built.
type SkillDef struct {
	app *App
	def *skill.Def
}

// skillSet is what an app declared of skills.
type skillSet = skill.Set

// Skill declares the skill at path ("git-workflow", or under a prefix of
// your choosing, "acme/billing/refunds") whose SKILL.md is skillMD: YAML
// front matter with at least name (the last segment of path) and
// description, then the instructions. Its other files are added with
// File. The skill is served at skill://<path>/SKILL.md.
//
// The front matter is checked as the Agent Skills specification and
// SEP-2640 ask: a name of 1 to 64 lowercase letters, digits and hyphens,
// a description of 1 to 1024 characters, license, compatibility and
// allowed-tools strings, metadata a map of strings to strings with no key
// under the reserved io.modelcontextprotocol/ prefix. A mistake panics,
// saying what to fix, as does a path already declared.
func Skill(a *App, path, skillMD string) *SkillDef {
	a.mustBeMutable()
	return &SkillDef{app: a, def: a.skills.Declare(path, skillMD)}
}

// Skills declares every skill under dir in fsys ("." for its root): each
// folder holding a SKILL.md is a skill, its path the folder's relative to
// dir ("git-workflow", "acme/billing/refunds"), its files every regular
// file under the folder but those of the skills nested in it, which are
// skills of their own (its entry lists theirs too, as SEP-2640 asks, to a
// caller who may read them). Names starting with "." are skipped, as an
// embedded tree skips them. Embedded, the skills ship inside the binary:
//
//	//go:embed skills
//	var skills embed.FS
//
//	vurb.Skills(app, skills, "skills")
//
// A SKILL.md directly in dir makes a skill whose path is dir's last
// segment. Every file is read and digested now; Skills panics, saying
// what to fix, when a SKILL.md breaks a rule Skill checks, a file is a
// symbolic link (it could lead out of the tree) or a skill would exceed
// 512 files or 16 MiB, its nested skills' included (skills.MaxFiles and
// skills.MaxBytes, the limits SEP-2640 sets). It returns the skills in
// path order, for RequireScopes and Tags.
func Skills(a *App, fsys fs.FS, dir string) []*SkillDef {
	a.mustBeMutable()
	defs := a.skills.DeclareTree(fsys, dir)
	out := make([]*SkillDef, len(defs))
	for i, d := range defs {
		out[i] = &SkillDef{app: a, def: d}
	}
	return out
}

// File adds a file to the skill at rel, a slash-separated path relative
// to the skill's folder ("references/FORMS.md", "scripts/extract.py"),
// served at skill://<path>/<rel>. It panics when rel is not a clean
// relative path, names a file the app already serves, or would take the
// skill (or a skill it is nested in) past 512 files or 16 MiB
// (skills.MaxFiles, skills.MaxBytes).
func (s *SkillDef) File(rel string, data []byte) *SkillDef {
	s.app.mustBeMutable()
	s.app.skills.AddFile(s.def, rel, data)
	return s
}

// RequireScopes makes the skill need the OAuth scopes in the caller's
// verified token, besides those App.RequireScopes asks of everything: a
// caller without them does not find it in skills/list or resources/list,
// and is refused, naming the scopes, when it asks for the skill or reads
// one of its files (as a tool call is). The skills nested in it, which
// lie in its folder, need them too; its own entry and folders list their
// files only to a caller who may read them.
func (s *SkillDef) RequireScopes(scopes ...string) *SkillDef {
	s.app.mustBeMutable()
	s.def.Scopes = addScopes(s.def.Scopes, "skill "+s.def.Path(), scopes)
	return s
}

// Tags tags the skill, for WithSkillVisibility's rule to read.
func (s *SkillDef) Tags(tags ...string) *SkillDef {
	s.app.mustBeMutable()
	for _, t := range tags {
		if !slices.Contains(s.def.Tags, t) {
			s.def.Tags = append(s.def.Tags, t)
		}
	}
	return s
}

// Path is the skill's path: "git-workflow", "acme/billing/refunds".
func (s *SkillDef) Path() string { return s.def.Path() }

// Name is the skill's name, the last segment of its path.
func (s *SkillDef) Name() string { return s.def.Name() }

// URI is the URI of the skill's SKILL.md, which skills/get takes.
func (s *SkillDef) URI() string { return s.def.URI() }

// SkillInfo is what a visibility rule (WithSkillVisibility) knows of a
// skill.
type SkillInfo struct {
	Path string // "acme/billing/refunds"
	Name string // "refunds", the last segment of Path
	URI  string // its SKILL.md's: skill://acme/billing/refunds/SKILL.md
	Tags []string
	// Scopes are those the skill needs: the app's, those of the skills it
	// is nested in, and its own.
	Scopes []string
}

// skillCapabilities is caps (the go-sdk's default when nil) declaring the
// skills extension, when the app has skills; caps itself is not changed.
func (a *App) skillCapabilities(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	return a.skills.Capabilities(caps)
}

// serveSkills gives server the app's skills: their files as resources,
// the extension's methods, and the middleware that answers them and keeps
// resources/list to what each caller may see. cacheable is the server's
// SetCacheable.
func (a *App) serveSkills(server *mcp.Server, rt *engine.Runtime, cacheable func(context.Context, mcp.Request, *mcp.Cacheable)) {
	a.skills.Serve(server, rt, cacheable, a.skillConfig)
}

// skillCacheable sets how long a client may cache the answer to a
// request about skills, and for whom, as for the app's other lists (see
// cache.go). It reports whether req is such a request.
func (a *App) skillCacheable(req mcp.Request, c *mcp.Cacheable, listTTL int) bool {
	if a.skills.Empty() {
		return false
	}
	return a.skills.Cacheable(req, c, listTTL, a.skillConfig)
}

// skillConfig is what the skills' index needs of the app, asked once.
func (a *App) skillConfig() skill.Config {
	cfg := skill.Config{Scopes: a.scopes, Origin: skillOrigin, MaxEcho: edge.MaxEcho, MaxViews: edge.MaxViews}
	if visible := a.cfg.skillVisible; visible != nil {
		// skill.Info has SkillInfo's fields: the conversion copies nothing
		// but the struct, once per class and skill.
		cfg.Visible = func(class string, s skill.Info) bool { return visible(class, SkillInfo(s)) }
	}
	if class := a.cfg.class; class != nil {
		cfg.Class = func(o *engine.Origin) string { return class(callerOf(o)) }
	}
	return cfg
}

// skillOrigin is originOf for the requests the skills' index reads.
func skillOrigin(ctx context.Context, req mcp.Request, meta mcp.Meta) engine.Origin {
	switch r := req.(type) {
	case *mcp.ServerRequest[*skills.ListParams]:
		return originOf(ctx, r, meta)
	case *mcp.ServerRequest[*skills.GetParams]:
		return originOf(ctx, r, meta)
	case *mcp.ServerRequest[*skills.ReadDirectoryParams]:
		return originOf(ctx, r, meta)
	case *mcp.ReadResourceRequest:
		return originOf(ctx, r, meta)
	case *mcp.ListResourcesRequest:
		return originOf(ctx, r, meta)
	}
	return engine.Origin{}
}
