// Package skill serves Agent Skills (SEP-2640, the MCP Skills extension):
// it reads, checks and digests the skills an app declares, indexes them
// once, and answers skills/list, skills/get, resources/directory/read and
// the resources/read of every skill:// file through the go-sdk. It stands
// apart from the root package, which keeps only the declarations
// (vurb.Skill, vurb.Skills, SkillDef) and hands them here; it never
// imports the root, so what it needs of the app (the caller's class, the
// app's scopes, a request's origin) comes in a Config.
package skill

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/vurb-go/vurb/skills"
)

// Skills (SEP-2640, the MCP Skills extension) are Agent Skills served by
// the server: a folder holding a SKILL.md (YAML front matter, then
// instructions) and the files it refers to, which a client lists
// (skills/list), confirms (skills/get) and reads file by file
// (resources/read of skill:// URIs) when its model needs them. vurb
// reads, checks and digests every file when the skill is declared; a
// served skill never changes, so its entry is computed once.

// Def is one declared skill, which the root's SkillDef refines until the
// app is built.
type Def struct {
	path        string // "git-workflow", "acme/billing/refunds"
	name        string
	description string
	frontmatter map[string]any
	// files are the skill's own, SKILL.md first: none lies in the folder
	// of a skill nested in it, whose files are the nested skill's alone
	// (its entry lists them, to those who may read them).
	files []*skillFile
	bytes int64 // of files
	// Scopes are the skill's own OAuth scopes (RequireScopes), checked
	// by the root before they are set.
	Scopes []string
	// Tags are the skill's tags, each once, for the visibility rule.
	Tags []string
}

// skillFile is one file of a skill, digested once.
type skillFile struct {
	rel    string // relative to the skill: "SKILL.md", "references/FORMS.md"
	uri    string
	data   []byte
	digest string // sha256:<hex>
	mime   string
}

// Set is what an app declared of skills.
type Set struct {
	list   []*Def
	byPath map[string]*Def
	owners map[string]*Def // every file's URI: the skill that declared it

	once  sync.Once
	index *skillIndex // made at first serve, immutable
}

// Empty reports whether the app declared no skill: then nothing of the
// extension is served.
func (set *Set) Empty() bool { return len(set.list) == 0 }

// Declare declares the skill at path whose SKILL.md is skillMD (see
// vurb.Skill), panicking, saying what to fix, on a mistake.
func (set *Set) Declare(path, skillMD string) *Def {
	if why := checkSkillPath(path); why != "" {
		panic(fmt.Sprintf("vurb: skill %s", why))
	}
	s := &Def{path: path}
	if err := s.parse(skillMD); err != nil {
		panic(fmt.Sprintf("vurb: skill %q: SKILL.md: %v", path, err))
	}
	s.addFile("SKILL.md", []byte(skillMD))
	set.addSkill(s)
	return s
}

// parse reads the SKILL.md's front matter into s.
func (s *Def) parse(skillMD string) error {
	yamlText, err := splitFrontmatter(skillMD)
	if err != nil {
		return err
	}
	fm, err := parseFrontmatter(yamlText)
	if err != nil {
		return err
	}
	s.name, s.description, err = checkFrontmatter(fm, s.path)
	s.frontmatter = fm
	return err
}

// AddFile adds a file to the skill s at rel (see SkillDef.File),
// panicking when rel is not a clean relative path, lies in the folder of
// a skill nested in s, names a file the app already serves, or would take
// the skill (or a skill it is nested in) past skills.MaxFiles files or
// skills.MaxBytes bytes.
func (set *Set) AddFile(s *Def, rel string, data []byte) {
	if why := checkSkillFilePath(rel); why != "" {
		panic(fmt.Sprintf("vurb: skill %q: file %q: %s", s.path, rel, why))
	}
	for _, t := range set.list {
		if strings.HasPrefix(t.path, s.path+"/") && strings.HasPrefix(s.path+"/"+rel, t.path+"/") {
			panic(fmt.Sprintf("vurb: skill %q: file %q lies in the folder of skill %q, nested in it: "+
				"a file belongs to the innermost skill whose folder holds it, which alone decides who reads it; add it to %q",
				s.path, rel, t.path, t.path))
		}
	}
	f := s.addFile(rel, data)
	if other, taken := set.owners[f.uri]; taken {
		s.files, s.bytes = s.files[:len(s.files)-1], s.bytes-int64(len(data))
		panic(fmt.Sprintf("vurb: skill %q: file %q: %s is already a file of skill %q", s.path, rel, f.uri, other.path))
	}
	set.owners[f.uri] = s
	set.checkSkillLimits(s.path)
}

// addFile appends a file to s's own.
func (s *Def) addFile(rel string, data []byte) *skillFile {
	sum := sha256.Sum256(data)
	f := &skillFile{rel: rel, uri: skillURI(s.path, rel), data: data,
		digest: "sha256:" + hex.EncodeToString(sum[:]), mime: skillMIMEType(rel, data)}
	s.files = append(s.files, f)
	s.bytes += int64(len(data))
	return f
}

// Path is the skill's path: "git-workflow", "acme/billing/refunds".
func (s *Def) Path() string { return s.path }

// Name is the skill's name, the last segment of its path.
func (s *Def) Name() string { return s.name }

// URI is the URI of the skill's SKILL.md, which skills/get takes.
func (s *Def) URI() string { return skillURI(s.path, "SKILL.md") }

// addSkill registers s, panicking when its path or one of its files'
// URIs is taken or when it takes a skill it is nested in past the limits.
func (set *Set) addSkill(s *Def) {
	if _, dup := set.byPath[s.path]; dup {
		panic(fmt.Sprintf("vurb: skill %q is already declared", s.path))
	}
	for _, f := range s.files {
		if other, taken := set.owners[f.uri]; taken {
			panic(fmt.Sprintf("vurb: skill %q: %s is already a file of skill %q: a nested skill's files are its own", s.path, f.uri, other.path))
		}
	}
	for _, outer := range set.list {
		if !strings.HasPrefix(s.path, outer.path+"/") {
			continue
		}
		for _, f := range outer.files {
			if strings.HasPrefix(outer.path+"/"+f.rel, s.path+"/") {
				panic(fmt.Sprintf("vurb: skill %q: its folder holds %s, a file of skill %q: "+
					"a file belongs to the innermost skill whose folder holds it, which alone decides who reads it; add it to %q",
					s.path, f.uri, outer.path, s.path))
			}
		}
	}
	if set.byPath == nil {
		set.byPath, set.owners = map[string]*Def{}, map[string]*Def{}
	}
	set.list = append(set.list, s)
	set.byPath[s.path] = s
	for _, f := range s.files {
		set.owners[f.uri] = s
	}
	set.checkSkillLimits(s.path)
}

// checkSkillLimits panics when the skill at path, or a skill it is nested
// in, holds more than skills.MaxFiles files or skills.MaxBytes bytes,
// its nested skills' files included.
func (set *Set) checkSkillLimits(path string) {
	for p := path; ; {
		if outer, ok := set.byPath[p]; ok {
			files, bytes := set.skillTotals(outer)
			if files > skills.MaxFiles || bytes > skills.MaxBytes {
				panic(fmt.Sprintf("vurb: skill %q would hold %d files of %d bytes, its nested skills' included; "+
					"SEP-2640 hosts need not load more than %d files or %d bytes: split it", outer.path, files, bytes, skills.MaxFiles, skills.MaxBytes))
			}
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return
		}
		p = p[:i]
	}
}

// skillTotals counts the files and bytes of s and of the skills nested in
// it.
func (set *Set) skillTotals(s *Def) (files int, bytes int64) {
	for _, t := range set.list {
		if t == s || strings.HasPrefix(t.path, s.path+"/") {
			files, bytes = files+len(t.files), bytes+t.bytes
		}
	}
	return files, bytes
}

// skillURI is the URI of the file rel of the skill at path: each segment
// of rel escaped as a URI path segment.
func skillURI(path, rel string) string {
	segments := strings.Split(rel, "/")
	for i, s := range segments {
		segments[i] = url.PathEscape(s)
	}
	return "skill://" + path + "/" + strings.Join(segments, "/")
}

// skillDirURI is the URI of the folder rel of the skill at path ("" for
// its root).
func skillDirURI(path, rel string) string {
	if rel == "" {
		return "skill://" + path
	}
	return strings.TrimSuffix(skillURI(path, rel+"/x"), "/x")
}

// checkSkillFilePath says what is wrong with a file's path relative to its
// skill, "" when nothing.
func checkSkillFilePath(rel string) string {
	if rel == "SKILL.md" {
		return "SKILL.md is the skill's own: give its text to Skill"
	}
	for _, s := range strings.Split(rel, "/") {
		if s == "" || s == "." || s == ".." {
			return "it must be a clean relative path: no leading '/', no empty, . or .. segments"
		}
		if strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f || r == '\\' }) {
			return "it must hold no control characters or backslashes"
		}
	}
	return ""
}

// skillMIMEType is the MIME type a file of a skill is served with: by its
// extension, from a fixed table (mime.TypeByExtension reads the system's
// tables, which differ between machines), else text/plain for UTF-8 text
// and application/octet-stream for the rest.
func skillMIMEType(rel string, data []byte) string {
	ext := ""
	if i := strings.LastIndexByte(rel, '.'); i > strings.LastIndexByte(rel, '/') {
		ext = strings.ToLower(rel[i:])
	}
	if t, ok := skillMIMETypes[ext]; ok {
		return t
	}
	if isText(data) {
		return "text/plain"
	}
	return "application/octet-stream"
}

var skillMIMETypes = map[string]string{
	".md": "text/markdown", ".markdown": "text/markdown", ".txt": "text/plain", ".json": "application/json",
	".yaml": "application/yaml", ".yml": "application/yaml", ".toml": "application/toml", ".xml": "application/xml",
	".html": "text/html", ".css": "text/css", ".csv": "text/csv", ".js": "text/javascript", ".mjs": "text/javascript",
	".ts": "text/x-typescript", ".py": "text/x-python", ".sh": "text/x-shellscript", ".go": "text/x-go", ".sql": "application/sql",
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
	".svg": "image/svg+xml", ".pdf": "application/pdf", ".zip": "application/zip",
}
