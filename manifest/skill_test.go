package manifest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/manifest"
)

func skill(uri, frontmatter string, files ...manifest.SkillFile) manifest.Skill {
	return manifest.Skill{URI: uri, Name: "x", Frontmatter: json.RawMessage(frontmatter), Files: files}
}

func TestDiffSkills(t *testing.T) {
	md := manifest.SkillFile{URI: "skill://a/SKILL.md", Digest: "sha256:aa", Size: 10}
	ref := manifest.SkillFile{URI: "skill://a/ref.md", Digest: "sha256:bb", Size: 3}
	a := skill("skill://a/SKILL.md", `{"name":"a","description":"A"}`, md, ref)
	for _, tc := range []struct {
		name     string
		old, new []manifest.Skill
		want     []string
	}{
		{"same, files in another order", []manifest.Skill{a},
			[]manifest.Skill{skill("skill://a/SKILL.md", `{"description":"A","name":"a"}`, ref, md)}, nil},
		{"removed", []manifest.Skill{a}, nil, []string{"BREAKING    skills/skill://a/SKILL.md: skill removed: hosts that load it will fail"}},
		{"added", nil, []manifest.Skill{a}, []string{"compatible  skills/skill://a/SKILL.md: new skill"}},
		{"front matter", []manifest.Skill{a}, []manifest.Skill{skill(a.URI, `{"name":"a","description":"B"}`, md, ref)},
			[]string{"compatible  skills/skill://a/SKILL.md: its front matter changed: hosts ask again before loading it"}},
		{"files", []manifest.Skill{a}, []manifest.Skill{skill(a.URI, string(a.Frontmatter),
			manifest.SkillFile{URI: md.URI, Digest: "sha256:cc", Size: 10}, manifest.SkillFile{URI: "skill://a/new.md", Digest: "sha256:dd", Size: 1})},
			[]string{"compatible  skills/skill://a/SKILL.md: files: 1 added, 1 removed, 1 changed: hosts ask again before loading it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			var got []string
			changes := manifest.Diff(manifest.Manifest{Skills: tc.old}, manifest.Manifest{Skills: tc.new})
			for _, c := range changes {
				got = append(got, c.String())
			}
			is.Equal(got, tc.want)
			is.Equal(manifest.Breaking(changes), tc.name == "removed")
		})
	}
}

func TestSkillsInTheManifest(t *testing.T) {
	is := is.New(t)
	m := manifest.Manifest{Skills: []manifest.Skill{skill("skill://b/SKILL.md", `{"name":"b"}`), skill("skill://a/SKILL.md", `{ "name" : "a" }`)}}
	data, err := m.Marshal()
	is.NoErr(err)
	back, err := manifest.Parse(data)
	is.NoErr(err)
	is.Equal(back.Skills[0].URI, "skill://a/SKILL.md") // sorted
	is.Equal(string(back.Skills[0].Frontmatter), `{"name":"a"}`)
	m.Format, m.Skills = manifest.Format, append(m.Skills, m.Skills[0])
	data, err = json.Marshal(m)
	is.NoErr(err)
	_, err = manifest.Parse(data)
	is.True(err != nil && strings.Contains(err.Error(), `skill "skill://b/SKILL.md" is listed twice`))
}
