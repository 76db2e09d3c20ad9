package skill

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/matryer/is"
)

// Every file belongs to one skill, the innermost whose folder holds it;
// a folder is held by the skills whose files lie under it; a skill needs
// the scopes of those it is nested in.
func TestIndexGivesEachFileItsInnermostSkill(t *testing.T) {
	is := is.New(t)
	var set Set
	set.DeclareTree(fstest.MapFS{
		"s/acme/SKILL.md":                   {Data: []byte("---\nname: acme\ndescription: A\n---\n")},
		"s/acme/guide.md":                   {Data: []byte("g")},
		"s/acme/vault/SKILL.md":             {Data: []byte("---\nname: vault\ndescription: V\n---\n")},
		"s/acme/vault/secret.md":            {Data: []byte("s")},
		"s/acme/x/deep/SKILL.md":            {Data: []byte("---\nname: deep\ndescription: D\n---\n")},
		"s/acme/x/deep/refs/r.md":           {Data: []byte("r")},
		"s/acme/x/deep/refs/inner/SKILL.md": {Data: []byte("---\nname: inner\ndescription: I\n---\n")},
	}, "s")
	set.byPath["acme"].Scopes = []string{"a"}
	set.byPath["acme/x/deep"].Scopes = []string{"d"}
	x := newSkillIndex(set.list, Config{Scopes: []string{"app"}})

	owners := map[string]string{}
	for uri, f := range x.files {
		owners[strings.TrimPrefix(uri, "skill://")] = f.owner.def.path
	}
	is.Equal(owners, map[string]string{
		"acme/SKILL.md": "acme", "acme/guide.md": "acme",
		"acme/vault/SKILL.md": "acme/vault", "acme/vault/secret.md": "acme/vault",
		"acme/x/deep/SKILL.md": "acme/x/deep", "acme/x/deep/refs/r.md": "acme/x/deep",
		"acme/x/deep/refs/inner/SKILL.md": "acme/x/deep/refs/inner",
	})

	dirs := map[string]string{}
	for uri, d := range x.dirs {
		var paths []string
		for _, s := range d.owners {
			paths = append(paths, s.def.path)
		}
		dirs[strings.TrimPrefix(uri, "skill://")] = strings.Join(paths, " ")
	}
	is.Equal(dirs, map[string]string{
		"acme":                   "acme acme/vault acme/x/deep acme/x/deep/refs/inner",
		"acme/vault":             "acme/vault",
		"acme/x":                 "acme/x/deep acme/x/deep/refs/inner",
		"acme/x/deep":            "acme/x/deep acme/x/deep/refs/inner",
		"acme/x/deep/refs":       "acme/x/deep acme/x/deep/refs/inner",
		"acme/x/deep/refs/inner": "acme/x/deep/refs/inner",
	})

	scopes := map[string]string{}
	for _, s := range x.skills {
		scopes[s.def.path] = strings.Join(s.info.Scopes, " ")
	}
	is.Equal(scopes, map[string]string{"acme": "app a", "acme/vault": "app a", "acme/x/deep": "app a d", "acme/x/deep/refs/inner": "app a d"})
}
