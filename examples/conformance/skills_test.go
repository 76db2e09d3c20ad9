package main

import (
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/vurbtest"
)

// The server ships the skills the suite's SEP-2640 scenarios read: the
// first one listed has a folder, which the directory scenario lists.
func TestSkills(t *testing.T) {
	for _, rev := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
		t.Run(rev, func(t *testing.T) {
			is := is.New(t)
			c := vurbtest.New(t, NewApp(), vurbtest.Protocol(rev), vurbtest.OverHTTP())
			skills := c.Skills()
			var got []string
			for _, s := range skills {
				got = append(got, s.URI)
				c.ReadSkill(s) // every file matches its digest and size
			}
			is.Equal(got, []string{"skill://acme/billing/refunds/SKILL.md", "skill://git-workflow/SKILL.md", "skill://pdf-processing/SKILL.md"})
			var kinds []string
			for _, r := range c.ReadDirectory("skill://acme/billing/refunds") {
				kinds = append(kinds, r.Name+" "+r.MIMEType)
			}
			is.Equal(kinds, []string{"SKILL.md text/markdown", "examples inode/directory"})
		})
	}
}
