package skill

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// skillIndex is an app's skills as they are served, computed once at the
// first server the app makes and never changed: each skill's entry, every
// file and every folder by URI, with the skills that hold it (a nested
// skill's files are its own and its enclosing skill's).
type skillIndex struct {
	skills []*indexedSkill          // in path order
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
	entry  *Entry
	info   Info
	scopes []string
	owners []*indexedSkill // itself alone, for access
}

type indexedFile struct {
	f      *skillFile
	owners []*indexedSkill
	skill  *indexedSkill // the skill whose SKILL.md it is, nil for other files
}

type indexedDir struct {
	children []dirChild // sorted by name
	owners   []*indexedSkill
	seen     map[string]int // child URI → index, while building
}

// dirChild is one entry of a folder: a file or a folder.
type dirChild struct {
	res    *mcp.Resource
	owners *[]*indexedSkill // the file's or the folder's, complete once built
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
	for i, d := range defs {
		s := &indexedSkill{pos: i, def: d, scopes: skillScopes(cfg.Scopes, d.Scopes)}
		s.owners = []*indexedSkill{s}
		s.info = Info{Path: d.path, Name: d.name, URI: d.URI(), Tags: slices.Clone(d.Tags), Scopes: s.scopes}
		x.perCaller = x.perCaller || len(s.scopes) > 0
		x.skills = append(x.skills, s)
		x.byURI[s.info.URI] = s
		x.add(s, defs)
	}
	for _, d := range x.dirs {
		d.seen = nil
		slices.SortFunc(d.children, func(p, q dirChild) int { return strings.Compare(p.res.Name, q.res.Name) })
	}
	return x
}

// add indexes s: its entry (its own files and those of the skills nested
// in it, SKILL.md first), its files and its folders.
func (x *skillIndex) add(s *indexedSkill, defs []*Def) {
	d := s.def
	entry := &Entry{URI: s.info.URI, Frontmatter: d.frontmatter}
	root := x.dir(skillDirURI(d.path, ""), s)
	for _, t := range defs {
		if t != d && !strings.HasPrefix(t.path, d.path+"/") {
			continue
		}
		prefix := strings.TrimPrefix(strings.TrimPrefix(t.path, d.path), "/")
		for _, f := range t.files {
			entry.Resources = append(entry.Resources, Resource{URI: f.uri, Digest: f.digest, Size: int64(len(f.data))})
			file := x.files[f.uri]
			if file == nil {
				file = &indexedFile{f: f}
				x.files[f.uri] = file
			}
			file.owners = append(file.owners, s)
			if t == d && f.rel == "SKILL.md" {
				file.skill = s
			}
			rel := f.rel
			if prefix != "" {
				rel = prefix + "/" + f.rel
			}
			x.place(d.path, root, rel, file, s)
		}
	}
	slices.SortStableFunc(entry.Resources[1:], func(p, q Resource) int { return strings.Compare(p.URI, q.URI) })
	s.entry = entry
}

// place lists the file at rel (relative to the skill at path) in its
// folder, and each folder on the way in its parent, all held by s.
func (x *skillIndex) place(path string, root *indexedDir, rel string, file *indexedFile, s *indexedSkill) {
	segments := strings.Split(rel, "/")
	parent := root
	for i, seg := range segments[:len(segments)-1] {
		uri := skillDirURI(path, strings.Join(segments[:i+1], "/"))
		sub := x.dir(uri, s)
		parent.child(&mcp.Resource{URI: uri, Name: seg, MIMEType: DirectoryMIMEType}, &sub.owners)
		parent = sub
	}
	parent.child(&mcp.Resource{URI: file.f.uri, Name: segments[len(segments)-1], MIMEType: file.f.mime, Size: int64(len(file.f.data))}, &file.owners)
}

// dir is the folder at uri, made on first use, held by s.
func (x *skillIndex) dir(uri string, s *indexedSkill) *indexedDir {
	d := x.dirs[uri]
	if d == nil {
		d = &indexedDir{seen: map[string]int{}}
		x.dirs[uri] = d
	}
	if !slices.Contains(d.owners, s) {
		d.owners = append(d.owners, s)
	}
	return d
}

// child lists res in d once.
func (d *indexedDir) child(res *mcp.Resource, owners *[]*indexedSkill) {
	if _, ok := d.seen[res.URI]; ok {
		return
	}
	d.seen[res.URI] = len(d.children)
	d.children = append(d.children, dirChild{res: res, owners: owners})
}
