package skills_test

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"

	"github.com/vurb-go/vurb/skills"
)

// TestWire pins the extension's names and the JSON a client reads, as
// SEP-2640 spells them.
func TestWire(t *testing.T) {
	is := is.New(t)
	is.Equal(skills.Extension, "io.modelcontextprotocol/skills")
	is.Equal([]string{skills.MethodList, skills.MethodGet, skills.MethodReadDirectory},
		[]string{"skills/list", "skills/get", "resources/directory/read"})
	entry := skills.Entry{
		URI:         "skill://pdf/SKILL.md",
		Frontmatter: map[string]any{"name": "pdf"},
		Resources:   []skills.Resource{{URI: "skill://pdf/SKILL.md", Digest: "sha256:00", Size: 3}},
	}
	got, err := json.Marshal(&entry)
	is.NoErr(err)
	is.Equal(string(got), `{"uri":"skill://pdf/SKILL.md","frontmatter":{"name":"pdf"},`+
		`"resources":[{"uri":"skill://pdf/SKILL.md","digest":"sha256:00","size":3}]}`)
	var p skills.ReadDirectoryParams
	is.NoErr(json.Unmarshal([]byte(`{"uri":"skill://pdf","cursor":"x"}`), &p))
	is.Equal(p.URI, "skill://pdf")
	is.Equal(p.Cursor, "x")
}
