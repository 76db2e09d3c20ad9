package main

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"
	vurbapp "github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/manifest"
)

// deploySkill is the SKILL.md of the skills server's first skill.
const deploySkill = "---\nname: deploy\ndescription: Deploy the service safely\n---\n" +
	"Run scripts/deploy.sh, then watch the error rate for ten minutes before you tell the user it went well.\n"

// skillsServer serves two skills on stdio; with the argument v2, one is
// gone and the other's script changed.
func skillsServer() error {
	v2 := slices.Contains(os.Args[1:], "v2")
	app := vurbapp.New(vurbapp.WithName("skilled"), vurbapp.WithVersion("1.0.0"))
	script := "#!/bin/sh\nmake deploy\n"
	if v2 {
		script += "make verify\n"
	}
	vurbapp.Skill(app, "ops/deploy", deploySkill).File("scripts/deploy.sh", []byte(script))
	if !v2 {
		vurbapp.Skill(app, "ops/rollback", "---\nname: rollback\ndescription: Roll back a bad release\n---\nUse the last green build.\n")
	}
	return app.Serve(context.Background(), vurbapp.Stdio())
}

func init() { helperServers["skills"] = skillsServer }

func TestInspectShowsSkills(t *testing.T) {
	is := is.New(t)
	env := []string{serverEnv + "=skills"}
	r := vurb(t, env, "inspect", "--json", os.Args[0])
	is.Equal(r.code, 0)
	var rep inspection
	is.NoErr(json.Unmarshal([]byte(r.stdout), &rep))
	is.Equal(len(rep.Skills), 2)
	deploy := rep.Skills[0]
	is.Equal(deploy.URI, "skill://ops/deploy/SKILL.md")
	is.Equal(deploy.Name, "deploy")
	is.Equal(len(deploy.Files), 2)
	is.Equal(deploy.Bytes, int64(len(deploySkill)+len("#!/bin/sh\nmake deploy\n")))
	is.Equal(deploy.SkillTokens, countTokens(deploySkill)) // what the model reads when the skill loads
	catalog, _ := json.Marshal(map[string]string{"name": "deploy", "description": "Deploy the service safely"})
	is.Equal(deploy.CatalogTokens, countTokens(string(catalog)))
	is.True(deploy.SkillTokens > deploy.CatalogTokens)

	r = vurb(t, env, "inspect", os.Args[0])
	is.Equal(r.code, 0)
	is.True(strings.Contains(r.stdout, "\nSkills (tokens: catalog entry, SKILL.md)\n"))
	is.True(strings.Contains(r.stdout, "skill://ops/rollback/SKILL.md"))
}

// A removed skill breaks hosts that load it; a changed file does not, but
// is reported.
func TestDiffSkills(t *testing.T) {
	is := is.New(t)
	env := []string{serverEnv + "=skills"}
	r := vurb(t, env, "manifest", os.Args[0])
	is.Equal(r.code, 0)
	m, err := manifest.Parse([]byte(r.stdout))
	is.NoErr(err)
	is.Equal(len(m.Skills), 2)
	old := t.TempDir() + "/old.json"
	is.NoErr(os.WriteFile(old, []byte(r.stdout), 0o600))

	r = vurb(t, env, "diff", old, os.Args[0]+" v2")
	is.Equal(r.code, 1)
	is.True(strings.Contains(r.stdout, "BREAKING    skills/skill://ops/rollback/SKILL.md: skill removed"))
	is.True(strings.Contains(r.stdout, "compatible  skills/skill://ops/deploy/SKILL.md: files: 0 added, 0 removed, 1 changed"))
}
