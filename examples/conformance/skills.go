package main

import (
	"embed"

	"github.com/vurb-go/vurb"
)

// skills are the Agent Skills the server ships in its binary (SEP-2640):
// each folder under skills/ holding a SKILL.md is one, served at
// skill://<folder>/SKILL.md. The suite's skills scenarios read the first
// one listed (acme/billing/refunds) and list its folders.
//
//go:embed skills
var skills embed.FS

func declareSkills(app *vurb.App) {
	vurb.Skills(app, skills, "skills")
}
