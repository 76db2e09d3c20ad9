package skill

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/skills"
)

// skillIndex is an app's skills as they are served, computed once at the
// first server the app makes and never changed: each skill's entry, every
// file and every folder by URI.
//
// Every file belongs to exactly one skill, the innermost whose folder
// holds it (Set refuses a file declared in a nested skill's folder by
// another skill), and only that skill's scopes and visibility decide who
// reads it, as view.go says. The enclosing skills' entries and folders
// list it too, to the callers who may read it.
type skillIndex struct {
	skills []*indexedSkill          // in path order: a skill after those it is nested in
	byURI  map[string]*indexedSkill // by SKILL.md URI
	files  map[string]*indexedFile
	dirs   map[string]*indexedDir
	// perCaller is true when what a caller sees depends on who it is:
	// a visibility rule, or scopes.
	perCaller bool

	class    func(*engine.Origin) string
	visible  func(string, Info) bool
	origin   func(context.Context, mcp.Request, mcp.Meta) engine.Origin
	maxEcho  int
	maxViews int
	mu       sync.RWMutex
	classes  map[string][]bool // what each class sees (view.go)
}

// Config is what the index needs of the app, handed over when it is made:
// the root's settings and helpers as plain values, so that this package
// never reads the App.
type Config struct {
	// Class names the class of the caller of an origin (WithVisibility's
	// class function); nil when every caller is of class "".
	Class func(*engine.Origin) string
	// Visible is WithSkillVisibility's rule; nil when every skill is
	// visible.
	Visible func(class string, s Info) bool
	// Scopes are those the app requires of everything (App.RequireScopes).
	Scopes []string
	// Origin is what a go-sdk request of the extension (or a
	// resources/read or resources/list) says of its caller; meta is its
	// params' _meta.
	Origin func(ctx context.Context, req mcp.Request, meta mcp.Meta) engine.Origin
	// MaxEcho bounds how much of a string a client sent an error quotes.
	MaxEcho int
	// MaxViews bounds how many classes' views are kept.
	MaxViews int
}

type indexedSkill struct {
	pos    int
	def    *Def
	parent *indexedSkill // the innermost skill it is nested in, nil for none
	entry  *skills.Entry
	// files are the entry's, in its order: each knows its skill, so an
	// entry can drop those of a nested skill the caller may not read.
	files  []*indexedFile
	info   Info
	scopes []string // the app's, its enclosing skills' and its own
}

type indexedFile struct {
	f     *skillFile
	owner *indexedSkill // the innermost skill whose folder holds it
	entry bool          // it is its owner's SKILL.md
}

// indexedDir is a folder of a skill: its direct children, and the skills
// whose files lie somewhere under it, which decide who may list it.
type indexedDir struct {
	children []dirChild // sorted by name
	owners   []*indexedSkill
	seen     map[string]bool // child URIs, while building
}

// dirChild is one entry of a folder: a file or a folder.
type dirChild struct {
	res  *mcp.Resource
	file *indexedFile // nil for a folder
	dir  *indexedDir  // nil for a file
}

// skillIndex returns the set's index, making it with the config cfg
// returns on first use.
func (set *Set) skillIndex(cfg func() Config) *skillIndex {
	set.once.Do(func() { set.index = newSkillIndex(set.list, cfg()) })
	return set.index
}

func newSkillIndex(list []*Def, cfg Config) *skillIndex {
	defs := slices.Clone(list)
	slices.SortFunc(defs, func(x, y *Def) int { return strings.Compare(x.path, y.path) })
	x := &skillIndex{byURI: map[string]*indexedSkill{}, files: map[string]*indexedFile{}, dirs: map[string]*indexedDir{},
		class: cfg.Class, visible: cfg.Visible, origin: cfg.Origin, maxEcho: cfg.MaxEcho, maxViews: cfg.MaxViews,
		classes: map[string][]bool{}}
	x.perCaller = x.visible != nil || len(cfg.Scopes) > 0
	byPath := map[string]*indexedSkill{}
	for i, d := range defs {
		s := &indexedSkill{pos: i, def: d, parent: enclosing(byPath, d.path)}
		s.scopes = skillScopes(cfg.Scopes, d.Scopes)
		if s.parent != nil {
			s.scopes = skillScopes(s.parent.scopes, d.Scopes)
		}
		s.info = Info{Path: d.path, Name: d.name, URI: d.URI(), Tags: slices.Clone(d.Tags), Scopes: s.scopes}
		x.perCaller = x.perCaller || len(s.scopes) > 0
		x.skills = append(x.skills, s)
		x.byURI[s.info.URI] = s
		byPath[d.path] = s
		for _, f := range d.files {
			file := &indexedFile{f: f, owner: s, entry: f.rel == "SKILL.md"}
			x.files[f.uri] = file
			x.place(file)
		}
	}
	for _, s := range x.skills {
		x.addEntry(s)
	}
	for _, d := range x.dirs {
		d.seen = nil
		slices.SortFunc(d.children, func(p, q dirChild) int { return strings.Compare(p.res.Name, q.res.Name) })
	}
	return x
}

// enclosing is the innermost skill of byPath that the skill at path is
// nested in, nil when none.
func enclosing(byPath map[string]*indexedSkill, path string) *indexedSkill {
	for i := strings.LastIndexByte(path, '/'); i > 0; i = strings.LastIndexByte(path, '/') {
		path = path[:i]
		if s, ok := byPath[path]; ok {
			return s
		}
	}
	return nil
}

// outermost is the outermost skill s is nested in, s itself when none.
func (s *indexedSkill) outermost() *indexedSkill {
	for s.parent != nil {
		s = s.parent
	}
	return s
}

// addEntry makes s's entry: its own files and those of the skills nested
// in it, SKILL.md first, then by URI.
func (x *skillIndex) addEntry(s *indexedSkill) {
	for _, t := range x.skills {
		if t != s && !strings.HasPrefix(t.def.path, s.def.path+"/") {
			continue
		}
		for _, f := range t.def.files {
			s.files = append(s.files, x.files[f.uri])
		}
	}
	slices.SortStableFunc(s.files[1:], func(p, q *indexedFile) int { return strings.Compare(p.f.uri, q.f.uri) })
	s.entry = &skills.Entry{URI: s.info.URI, Frontmatter: s.def.frontmatter, Resources: make([]skills.Resource, len(s.files))}
	for i, f := range s.files {
		s.entry.Resources[i] = resourceOf(f)
	}
}

func resourceOf(f *indexedFile) skills.Resource {
	return skills.Resource{URI: f.f.uri, Digest: f.f.digest, Size: int64(len(f.f.data))}
}

// place lists file in its folder, and each folder on the way in its
// parent, from the root of the outermost skill its owner is nested in:
// each folder on the way holds a file of the owner.
func (x *skillIndex) place(file *indexedFile) {
	s := file.owner
	root := s.outermost().def.path
	rel := strings.TrimPrefix(strings.TrimPrefix(s.def.path, root)+"/"+file.f.rel, "/")
	segments := strings.Split(rel, "/")
	parent := x.dir(skillDirURI(root, ""), s)
	for i, seg := range segments[:len(segments)-1] {
		uri := skillDirURI(root, strings.Join(segments[:i+1], "/"))
		sub := x.dir(uri, s)
		parent.child(dirChild{res: &mcp.Resource{URI: uri, Name: seg, MIMEType: skills.DirectoryMIMEType}, dir: sub})
		parent = sub
	}
	parent.child(dirChild{res: &mcp.Resource{URI: file.f.uri, Name: segments[len(segments)-1], MIMEType: file.f.mime,
		Size: int64(len(file.f.data))}, file: file})
}

// dir is the folder at uri, made on first use, holding a file of s.
func (x *skillIndex) dir(uri string, s *indexedSkill) *indexedDir {
	d := x.dirs[uri]
	if d == nil {
		d = &indexedDir{seen: map[string]bool{}}
		x.dirs[uri] = d
	}
	if !slices.Contains(d.owners, s) {
		d.owners = append(d.owners, s)
	}
	return d
}

// child lists c in d once.
func (d *indexedDir) child(c dirChild) {
	if d.seen[c.res.URI] {
		return
	}
	d.seen[c.res.URI] = true
	d.children = append(d.children, c)
}
