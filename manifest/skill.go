package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Skill is one skill a server serves (the MCP Skills extension, SEP-2640)
// as skills/list describes it: the URI of its SKILL.md, its front matter
// and every file with its digest and size.
type Skill struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Frontmatter is the SKILL.md's front matter as JSON, canonical.
	Frontmatter json.RawMessage `json:"frontmatter,omitempty"`
	// Files are the skill's files, sorted by URI.
	Files []SkillFile `json:"files,omitempty"`
}

// SkillFile is one file of a skill.
type SkillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// The kinds of change of a skill.
const (
	SkillRemoved Kind = "skill-removed" // breaking: hosts that load it by its URI fail
	SkillAdded   Kind = "skill-added"   // compatible
	// SkillChanged is compatible, but its files are what a host's
	// approval of the skill binds to (SEP-2640): hosts ask their users
	// again before loading it.
	SkillChanged Kind = "skill-changed"
)

// normalizeSkills sorts skills by URI, their files by URI, and makes
// their front matter canonical.
func normalizeSkills(ss []Skill) []Skill {
	ss = slices.Clone(ss)
	for i := range ss {
		s := &ss[i]
		s.Frontmatter = Canonical(s.Frontmatter)
		s.Files = slices.Clone(s.Files)
		slices.SortFunc(s.Files, func(x, y SkillFile) int { return strings.Compare(x.URI, y.URI) })
	}
	slices.SortFunc(ss, func(x, y Skill) int { return strings.Compare(x.URI, y.URI) })
	return ss
}

// skills classifies the changes of the skills from old to new.
func (d *differ) skills(old, new []Skill) {
	pair(old, new, func(s Skill) string { return s.URI },
		func(s Skill) {
			d.add(SkillRemoved, true, "skills/"+s.URI, "skill removed: hosts that load it will fail")
		},
		func(s Skill) { d.add(SkillAdded, false, "skills/"+s.URI, "new skill") },
		func(a, b Skill) {
			if !bytes.Equal(a.Frontmatter, b.Frontmatter) {
				d.add(SkillChanged, false, "skills/"+a.URI, "its front matter changed: hosts ask again before loading it")
			}
			added, removed, changed := 0, 0, 0
			pair(a.Files, b.Files, func(f SkillFile) string { return f.URI },
				func(SkillFile) { removed++ }, func(SkillFile) { added++ },
				func(x, y SkillFile) {
					if x != y {
						changed++
					}
				})
			if added+removed+changed > 0 {
				d.add(SkillChanged, false, "skills/"+a.URI, "files: %d added, %d removed, %d changed: hosts ask again before loading it", added, removed, changed)
			}
		})
}
