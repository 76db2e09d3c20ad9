package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/manifest"
)

// The MCP Skills extension (SEP-2640) as vurb reads it from any server:
// skills/list, then each SKILL.md, whose tokens are what a model reads
// when a host loads the skill.

const skillsExtension = "io.modelcontextprotocol/skills"

type listSkillsParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type listSkillsResult struct {
	mcp.ResultBase
	Skills     []wireSkill `json:"skills"`
	NextCursor string      `json:"nextCursor,omitempty"`
}

// wireSkill is a skills/list entry; resources is a list of files or the
// string "dynamic".
type wireSkill struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Resources   json.RawMessage `json:"resources"`
}

// addSkillMethods lets client send skills/list.
func addSkillMethods(client *mcp.Client) {
	_ = mcp.AddSendingCustomMethod[*listSkillsParams, *listSkillsResult](client, "skills/list")
}

// addSkills lists the skills of a server that declares the extension
// into snap, and counts the tokens of each SKILL.md.
func (snap *snapshot) addSkills(ctx context.Context, e *env, s *session, caps *mcp.ServerCapabilities) error {
	if _, ok := caps.Extensions[skillsExtension]; !ok {
		return nil
	}
	e.progress.step("listing skills")
	entries, err := pages(ctx, e, s, "skills", func(ctx context.Context, cursor string) ([]wireSkill, string, error) {
		r, err := mcp.CallCustomMethod[*listSkillsParams, *listSkillsResult](ctx, s.ClientSession, "skills/list", &listSkillsParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.Skills, r.NextCursor, nil
	})
	if err != nil {
		return err
	}
	snap.skillTokens = map[string]int{}
	for _, w := range entries {
		var fm struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		}
		_ = json.Unmarshal(w.Frontmatter, &fm)
		sk := manifest.Skill{URI: w.URI, Name: fm.Name, Description: fm.Description, Frontmatter: w.Frontmatter}
		_ = json.Unmarshal(w.Resources, &sk.Files) // "dynamic": no files to pin
		snap.manifest.Skills = append(snap.manifest.Skills, sk)
		res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: w.URI})
		if err != nil {
			if ctx.Err() != nil || s.budget.exceeded() {
				return fmt.Errorf("resources/read %s: %w", oneLine(w.URI, 80), s.budget.explain(err))
			}
			e.progress.step("cannot read %s: %v", oneLine(w.URI, 80), err)
			continue
		}
		for _, c := range res.Contents {
			snap.skillTokens[w.URI] += countTokens(c.Text)
		}
	}
	snap.manifest = manifest.Normalize(snap.manifest)
	e.progress.step("%s", plural(len(entries), "skill"))
	return nil
}

// inspectedSkill is a skill with what it weighs: its catalog entry (name
// and description, in the model's context from the start) and its
// SKILL.md (loaded when the model uses the skill), in tokens, and its
// files in bytes.
type inspectedSkill struct {
	manifest.Skill
	CatalogTokens int   `json:"catalogTokens"`
	SkillTokens   int   `json:"skillTokens"`
	Bytes         int64 `json:"bytes"`
}

// skillsOf weighs snap's skills.
func skillsOf(snap snapshot) []inspectedSkill {
	var out []inspectedSkill
	for _, s := range snap.manifest.Skills {
		catalog, _ := json.Marshal(map[string]string{"name": s.Name, "description": s.Description})
		x := inspectedSkill{Skill: s, CatalogTokens: countTokens(string(catalog)), SkillTokens: snap.skillTokens[s.URI]}
		for _, f := range s.Files {
			x.Bytes += f.Size
		}
		out = append(out, x)
	}
	return out
}

// writeSkills prints the skills section of inspect's report.
func writeSkills(w io.Writer, skills []inspectedSkill) {
	if len(skills) == 0 {
		return
	}
	fmt.Fprintln(w, "\nSkills (tokens: catalog entry, SKILL.md)")
	tw := newTable(w)
	for _, s := range skills {
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%s, %d bytes\t%s\n", visible(s.URI), s.CatalogTokens, s.SkillTokens,
			plural(len(s.Files), "file"), s.Bytes, oneLine(s.Description, 80))
	}
	tw.flush()
}
