package vurb_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/toon"
)

type Member struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Role string `json:"role"`
}

type Team struct {
	Members []Member `json:"members"`
}

func team(context.Context, noInput) (Team, error) {
	return Team{Members: []Member{{1, "Ada", "admin"}, {2, "Linus", "member"}}}, nil
}

func TestTOONDescription(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithExposition(vurb.Grouped))
	tool := app.Tool("projects").Describe("Manage projects.").TOONDescription()
	vurb.Query(tool, "list", ok[ListUsers]("x")).Describe("List projects")
	vurb.Mutation(tool, "delete", ok[UserRef]("x")).Describe("Delete a project")
	d := descriptions(t, connect(t, app, nil))
	is.Equal(d["projects"], "Manage projects.\n"+
		"actions[2|]{action|desc|marks}:\n"+
		"  list|List projects|read-only\n"+
		"  delete|Delete a project|destructive")
}

func TestTOONResults(t *testing.T) {
	is := is.New(t)
	const want = "members[2|]{id|name|role}:\n  1|Ada|admin\n  2|Linus|member"

	app := vurb.New(vurb.WithResultFormat(vurb.TOONResults()))
	vurb.Query(app, "team.list", team)
	res, err := callRaw(t, connect(t, app, nil), "team_list", "")
	is.NoErr(err)
	is.Equal(text(res), want)
	data, err := json.Marshal(res.StructuredContent)
	is.NoErr(err)
	is.Equal(string(data), `{"members":[{"id":1,"name":"Ada","role":"admin"},{"id":2,"name":"Linus","role":"member"}]}`) // programs still get JSON

	// The helper, per handler, whatever the app's format.
	helper := vurb.New()
	vurb.Query(helper, "team.list", func(ctx context.Context, in noInput) (any, error) {
		t, _ := team(ctx, in)
		return vurb.TOON(t), nil
	})
	is.Equal(text(call(t, helper, "team_list", "")), want)

	// And the text decodes back to the same data.
	back, err := toon.ToJSON([]byte(want))
	is.NoErr(err)
	is.Equal(string(back), `{"members":[{"id":1,"name":"Ada","role":"admin"},{"id":2,"name":"Linus","role":"member"}]}`)
}

func TestTOONResultsAreSmaller(t *testing.T) {
	is := is.New(t)
	jsonApp, toonApp := vurb.New(), vurb.New(vurb.WithResultFormat(vurb.TOONResults()))
	big := func(context.Context, noInput) (Team, error) {
		var out Team
		for i := range 200 {
			out.Members = append(out.Members, Member{ID: i, Name: "member-" + strings.Repeat("x", i%7), Role: "member"})
		}
		return out, nil
	}
	vurb.Query(jsonApp, "team.list", big)
	vurb.Query(toonApp, "team.list", big)
	j, tn := len(text(call(t, jsonApp, "team_list", ""))), len(text(call(t, toonApp, "team_list", "")))
	t.Logf("200 members: JSON %d bytes, TOON %d bytes", j, tn)
	is.True(float64(tn) < 0.65*float64(j))
}
