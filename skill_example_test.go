package vurb_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/skills"
)

// Skills ship in the binary: with //go:embed skills, pass the embed.FS;
// here a MapFS stands for it. A go-sdk client lists them with skills/list
// and reads their files as resources.
func ExampleSkills() {
	tree := fstest.MapFS{
		"skills/git-workflow/SKILL.md": {Data: []byte("---\nname: git-workflow\ndescription: Branch and commit the team's way\n---\n" +
			"Read references/naming.md before you branch.\n")},
		"skills/git-workflow/references/naming.md": {Data: []byte("topic/<short-name>\n")},
	}
	app := vurb.New(vurb.WithName("dev-tools"))
	vurb.Skills(app, tree, "skills")

	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, _ := app.NewServer().Connect(ctx, serverT, nil)
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1.0.0"}, nil)
	_ = mcp.AddSendingCustomMethod[*skills.ListParams, *skills.ListResult](client, skills.MethodList)
	cs, _ := client.Connect(ctx, clientT, nil)
	defer cs.Close()

	list, err := mcp.CallCustomMethod[*skills.ListParams, *skills.ListResult](ctx, cs, skills.MethodList, &skills.ListParams{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range list.Skills {
		fmt.Println(s.URI, "-", s.Frontmatter["description"])
		for _, f := range s.Resources {
			fmt.Println(" ", f.URI, f.Size, "bytes")
		}
	}
	read, _ := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://git-workflow/references/naming.md"})
	fmt.Print(read.Contents[0].Text)
	// Output:
	// skill://git-workflow/SKILL.md - Branch and commit the team's way
	//   skill://git-workflow/SKILL.md 118 bytes
	//   skill://git-workflow/references/naming.md 19 bytes
	// topic/<short-name>
}

// A skill declared in code, its files added one by one, only for callers
// whose token grants a scope.
func ExampleSkill() {
	app := vurb.New()
	deploy := vurb.Skill(app, "ops/deploy", "---\nname: deploy\ndescription: Deploy the service safely\n---\nRun scripts/deploy.sh.\n").
		File("scripts/deploy.sh", []byte("#!/bin/sh\nmake deploy\n")).
		RequireScopes("ops:deploy")
	fmt.Println(deploy.URI())
	// Output:
	// skill://ops/deploy/SKILL.md
}
