package vurb

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Skills (SEP-2640, the MCP Skills extension) are Agent Skills served by
// the server: a folder holding a SKILL.md (YAML front matter, then
// instructions) and the files it refers to, which a client lists
// (skills/list), confirms (skills/get) and reads file by file
// (resources/read of skill:// URIs) when its model needs them. vurb
// reads, checks and digests every file when the skill is declared; a
// served skill never changes, so its entry is computed once.

// Limits SEP-2640 sets on one skill, its nested skills' files included: a
// host need not load a larger one, so vurb refuses to serve it.
const (
	MaxSkillFiles = 512
	MaxSkillBytes = 16 << 20
)

// SkillDef is one declared skill; its methods refine it until the app is
// built.
type SkillDef struct {
	app         *App
	path        string // "git-workflow", "acme/billing/refunds"
	name        string
	description string
	frontmatter map[string]any
	// files are the skill's own, SKILL.md first: a nested skill's files
	// are the nested skill's (the index lists them in both).
	files  []*skillFile
	bytes  int64 // of files
	scopes []string
	tags   []string
}

// skillFile is one file of a skill, digested once.
type skillFile struct {
	rel    string // relative to the skill: "SKILL.md", "references/FORMS.md"
	uri    string
	data   []byte
	digest string // sha256:<hex>
	mime   string
}

// skillSet is what an app declared of skills.
type skillSet struct {
	list   []*SkillDef
	byPath map[string]*SkillDef
	owners map[string]*SkillDef // every file's URI: the skill that declared it

	once  sync.Once
	index *skillIndex // made at first serve, immutable
}

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
	if why := checkSkillPath(path); why != "" {
		panic(fmt.Sprintf("vurb: skill %s", why))
	}
	s := &SkillDef{app: a, path: path}
	if err := s.parse(skillMD); err != nil {
		panic(fmt.Sprintf("vurb: skill %q: SKILL.md: %v", path, err))
	}
	s.addFile("SKILL.md", []byte(skillMD))
	a.addSkill(s)
	return s
}

// parse reads the SKILL.md's front matter into s.
func (s *SkillDef) parse(skillMD string) error {
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

// File adds a file to the skill at rel, a slash-separated path relative
// to the skill's folder ("references/FORMS.md", "scripts/extract.py"),
// served at skill://<path>/<rel>. It panics when rel is not a clean
// relative path, names a file the app already serves, or would take the
// skill (or a skill it is nested in) past MaxSkillFiles files or
// MaxSkillBytes bytes.
func (s *SkillDef) File(rel string, data []byte) *SkillDef {
	s.app.mustBeMutable()
	if why := checkSkillFilePath(rel); why != "" {
		panic(fmt.Sprintf("vurb: skill %q: file %q: %s", s.path, rel, why))
	}
	f := s.addFile(rel, data)
	if other, taken := s.app.skills.owners[f.uri]; taken {
		s.files, s.bytes = s.files[:len(s.files)-1], s.bytes-int64(len(data))
		panic(fmt.Sprintf("vurb: skill %q: file %q: %s is already a file of skill %q", s.path, rel, f.uri, other.path))
	}
	s.app.skills.owners[f.uri] = s
	s.app.checkSkillLimits(s.path)
	return s
}

// addFile appends a file to s's own.
func (s *SkillDef) addFile(rel string, data []byte) *skillFile {
	sum := sha256.Sum256(data)
	f := &skillFile{rel: rel, uri: skillURI(s.path, rel), data: data,
		digest: "sha256:" + hex.EncodeToString(sum[:]), mime: skillMIMEType(rel, data)}
	s.files = append(s.files, f)
	s.bytes += int64(len(data))
	return f
}

// RequireScopes makes the skill need the OAuth scopes in the caller's
// verified token, besides those App.RequireScopes asks of everything: a
// caller without them does not find it in skills/list or resources/list,
// and is refused, naming the scopes, when it asks for the skill or reads
// one of its files (as a tool call is).
func (s *SkillDef) RequireScopes(scopes ...string) *SkillDef {
	s.app.mustBeMutable()
	s.scopes = addScopes(s.scopes, "skill "+s.path, scopes)
	return s
}

// Tags tags the skill, for WithSkillVisibility's rule to read.
func (s *SkillDef) Tags(tags ...string) *SkillDef {
	s.app.mustBeMutable()
	for _, t := range tags {
		if !slices.Contains(s.tags, t) {
			s.tags = append(s.tags, t)
		}
	}
	return s
}

// Path is the skill's path: "git-workflow", "acme/billing/refunds".
func (s *SkillDef) Path() string { return s.path }

// Name is the skill's name, the last segment of its path.
func (s *SkillDef) Name() string { return s.name }

// URI is the URI of the skill's SKILL.md, which skills/get takes.
func (s *SkillDef) URI() string { return skillURI(s.path, "SKILL.md") }

// addSkill registers s, panicking when its path or one of its files'
// URIs is taken or when it takes a skill it is nested in past the limits.
func (a *App) addSkill(s *SkillDef) {
	set := &a.skills
	if _, dup := set.byPath[s.path]; dup {
		panic(fmt.Sprintf("vurb: skill %q is already declared", s.path))
	}
	for _, f := range s.files {
		if other, taken := set.owners[f.uri]; taken {
			panic(fmt.Sprintf("vurb: skill %q: %s is already a file of skill %q: a nested skill's files are its own", s.path, f.uri, other.path))
		}
	}
	if set.byPath == nil {
		set.byPath, set.owners = map[string]*SkillDef{}, map[string]*SkillDef{}
	}
	set.list = append(set.list, s)
	set.byPath[s.path] = s
	for _, f := range s.files {
		set.owners[f.uri] = s
	}
	a.checkSkillLimits(s.path)
}

// checkSkillLimits panics when the skill at path, or a skill it is nested
// in, holds more than MaxSkillFiles files or MaxSkillBytes bytes, its
// nested skills' files included.
func (a *App) checkSkillLimits(path string) {
	for p := path; ; {
		if outer, ok := a.skills.byPath[p]; ok {
			files, bytes := a.skillTotals(outer)
			if files > MaxSkillFiles || bytes > MaxSkillBytes {
				panic(fmt.Sprintf("vurb: skill %q would hold %d files of %d bytes, its nested skills' included; "+
					"SEP-2640 hosts need not load more than %d files or %d bytes: split it", outer.path, files, bytes, MaxSkillFiles, MaxSkillBytes))
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
func (a *App) skillTotals(s *SkillDef) (files int, bytes int64) {
	for _, t := range a.skills.list {
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
