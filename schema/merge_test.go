package schema

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

type (
	projCommon struct {
		WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace ID"`
		Verbose     *bool  `json:"verbose,omitempty" description:"Explain the result."`
	}
	projCreate struct {
		projCommon
		Name  string `json:"name" validate:"required" description:"Project name"`
		Color string `json:"color,omitempty" validate:"omitempty,oneof=red green"`
	}
	projUpdate struct {
		projCommon
		ID    string  `json:"id" validate:"required" description:"Project ID"`
		Name  *string `json:"name,omitempty" validate:"omitempty,min=1" description:"New name"`
		Color string  `json:"color,omitempty" validate:"omitempty,oneof=green blue"`
	}
	projDelete struct {
		projCommon
		ID string `json:"id" validate:"required"`
	}
	projList struct {
		projCommon
		Limit *int `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
	}
	projSearch struct {
		projCommon
		Query string `json:"query" validate:"required" description:"Full-text query"`
		Limit *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=50"`
	}
	projFree struct {
		projCommon
		Color string `json:"color,omitempty"`
	}
	projConflict struct {
		Limit string `json:"limit,omitempty"`
	}
)

func projMembers() []Member {
	return []Member{
		{Key: "create", Codec: For[projCreate]()},
		{Key: "update", Codec: For[projUpdate]()},
		{Key: "delete", Codec: For[projDelete]()},
		{Key: "list", Codec: For[projList]()},
		{Key: "search", Codec: For[projSearch]()},
	}
}

func TestMergeTiers(t *testing.T) {
	is := is.New(t)
	got := Merge("action", For[projCommon](), projMembers(), nil)
	// Declared differently: each action says its own.
	is.Equal(string(got), `{"type":"object","properties":{"action":{"type":"string","enum":["create","update","delete","list","search"]},"workspace_id":{"type":"string","minLength":1},"verbose":{"type":"boolean","description":"Explain the result."},"name":{"type":"string","description":"create (required): Project name\nupdate: New name","minLength":1},"color":{"type":"string","description":"create: one of red, green\nupdate: one of green, blue"},"id":{"type":"string","description":"update (required): Project ID\ndelete (required)","minLength":1},"limit":{"type":"integer","description":"list: Page size; max 100\nsearch: max 50","minimum":1},"query":{"type":"string","description":"search (required): Full-text query","minLength":1}},"required":["action","workspace_id"],"additionalProperties":false}`)
}

func TestMergeWithoutCommon(t *testing.T) {
	is := is.New(t)
	got := Merge("op", nil, []Member{
		{Key: "users.list", Codec: For[projList]()},
		{Key: "users.find", Codec: For[projSearch]()},
	}, nil)
	// Without a common struct, workspace_id is required by every action, so
	// the schema requires it: no note has to say so.
	is.Equal(string(got), `{"type":"object","properties":{"op":{"type":"string","enum":["users.list","users.find"]},"workspace_id":{"type":"string","minLength":1},"verbose":{"type":"boolean","description":"Explain the result."},"limit":{"type":"integer","description":"users.list: Page size; max 100\nusers.find: max 50","minimum":1},"query":{"type":"string","description":"users.find (required): Full-text query","minLength":1}},"required":["op","workspace_id"],"additionalProperties":false}`)
}

func TestMergeEnumOfOneActionOnly(t *testing.T) {
	is := is.New(t)
	got := Merge("action", nil, []Member{
		{Key: "create", Codec: For[projCreate]()},
		{Key: "paint", Codec: For[projFree]()},
	}, nil)
	// paint accepts any color: the schema has no enum, and the enum is
	// create's alone.
	is.Equal(string(got), `{"type":"object","properties":{"action":{"type":"string","enum":["create","paint"]},"workspace_id":{"type":"string","minLength":1},"verbose":{"type":"boolean","description":"Explain the result."},"name":{"type":"string","description":"create (required): Project name","minLength":1},"color":{"type":"string","description":"create: one of red, green\npaint"}},"required":["action","workspace_id"],"additionalProperties":false}`)
}

func TestMergeRecursiveDefs(t *testing.T) {
	is := is.New(t)
	got := Merge("action", nil, []Member{
		{Key: "tree", Codec: For[treeInput]()},
		{Key: "list", Codec: For[projList]()},
	}, nil)
	is.Equal(string(got), `{"type":"object","properties":{"action":{"type":"string","enum":["tree","list"]},"root":{"description":"tree","allOf":[{"$ref":"#/$defs/treeNode"}]},"workspace_id":{"type":"string","description":"list (required)","minLength":1},"verbose":{"type":"boolean","description":"list: Explain the result"},"limit":{"type":"integer","description":"list: Page size","minimum":1,"maximum":100}},"required":["action"],"additionalProperties":false,"$defs":{"treeNode":{"type":"object","properties":{"name":{"type":"string","minLength":1},"children":{"type":"array","items":{"$ref":"#/$defs/treeNode"}}},"required":["name"],"additionalProperties":false}}}`)
}

func TestMergeActionDescriptions(t *testing.T) {
	is := is.New(t)
	got := Merge("action", nil, []Member{
		{Key: "list", Codec: For[listProjects](), Description: "List projects."},
		{Key: "count", Codec: For[listProjects]()},
		{Key: "export", Codec: For[listProjects](), Description: " Export projects as CSV "},
	}, nil)
	is.Equal(string(got), `{"type":"object","properties":{"action":{"type":"string","description":"list: List projects; export: Export projects as CSV","enum":["list","count","export"]},"workspace_id":{"type":"string","minLength":1},"limit":{"type":"integer","description":"Page size","minimum":1,"maximum":100}},"required":["action","workspace_id"],"additionalProperties":false}`)
}

func TestMergePanics(t *testing.T) {
	tests := []struct {
		name    string
		disc    string
		common  *Codec
		members []Member
		want    string
	}{
		{"type conflict", "action", nil, []Member{{Key: "list", Codec: For[projList]()}, {Key: "odd", Codec: For[projConflict]()}},
			`schema: Merge: field "limit" is integer in action "list" but string in action "odd"; give both the same type or use different names`},
		{"common conflict", "action", For[projConflict](), []Member{{Key: "list", Codec: For[projList]()}},
			`schema: Merge: field "limit" is string in action "(common)" but integer in action "list"; give both the same type or use different names`},
		{"discriminator clash", "limit", nil, []Member{{Key: "list", Codec: For[projList]()}},
			`schema: Merge: field "limit" of action "list" has the discriminator's name; rename one of them`},
		{"discriminator clash in another case", "LIMIT", nil, []Member{{Key: "list", Codec: For[projList]()}},
			`schema: Merge: field "limit" of action "list" has the discriminator's name; rename one of them`},
		{"no members", "action", nil, nil, `schema: Merge: no members`},
		{"empty discriminator", "", nil, []Member{{Key: "list", Codec: For[projList]()}}, `schema: Merge: empty discriminator name`},
		{"nil codec", "action", nil, []Member{{Key: "list"}}, `schema: Merge: member "list" has a nil Codec`},
		{"repeated key", "action", nil, []Member{{Key: "list", Codec: For[projList]()}, {Key: "list", Codec: For[projList]()}},
			`schema: Merge: member key "list" is empty or repeated`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(panicText(func() { Merge(tt.disc, tt.common, tt.members, nil) }), tt.want)
		})
	}
}

func TestJoinNote(t *testing.T) {
	tests := []struct{ desc, note, want string }{
		{"", "For: list", "For: list"},
		{"Page size", "For: list", "Page size. For: list"},
		{"Page size.", "For: list", "Page size. For: list"},
		{"Really?", "For: list", "Really? For: list"},
		{"Workspace ID", "(always required)", "Workspace ID (always required)"},
	}
	for _, tt := range tests {
		is.New(t).Equal(joinNote(tt.desc, tt.note), tt.want)
	}
}

type byID struct {
	ID string `json:"id" validate:"required" description:"Project ID"`
}

type byIDNoted struct {
	ID   string `json:"id" validate:"required" description:"Project ID"`
	Note string `json:"note,omitempty" description:"Why"`
}

type pageOnly struct {
	Limit int `json:"limit,omitempty" description:"Page size"`
}

// TestMergeNamesTheOthers: a property most actions take names the few that
// do not; one every action requires is required by the tool itself.
func TestMergeNamesTheOthers(t *testing.T) {
	is := is.New(t)
	got := Merge("action", nil, []Member{
		{Key: "list", Codec: For[pageOnly]()},
		{Key: "get", Codec: For[byID]()},
		{Key: "archive", Codec: For[byID]()},
		{Key: "delete", Codec: For[byID]()},
	}, nil)
	is.Equal(string(got), `{"type":"object","properties":{"action":{"type":"string","enum":["list","get","archive","delete"]},"limit":{"type":"integer","description":"list: Page size"},"id":{"type":"string","description":"all but list (required): Project ID","minLength":1}},"required":["action"],"additionalProperties":false}`)

	// Two of three: naming them is no longer than naming the other.
	got = Merge("action", nil, []Member{
		{Key: "list", Codec: For[pageOnly]()},
		{Key: "get", Codec: For[byID]()},
		{Key: "archive", Codec: For[byID]()},
	}, nil)
	is.Equal(string(got), `{"type":"object","properties":{"action":{"type":"string","enum":["list","get","archive"]},"limit":{"type":"integer","description":"list: Page size"},"id":{"type":"string","description":"get, archive (required): Project ID","minLength":1}},"required":["action"],"additionalProperties":false}`)

	// Required by all, declared alike: the tool requires it, no note.
	got = Merge("action", nil, []Member{
		{Key: "get", Codec: For[byID]()},
		{Key: "archive", Codec: For[byIDNoted]()},
	}, nil)
	is.Equal(string(got), `{"type":"object","properties":{"action":{"type":"string","enum":["get","archive"]},"id":{"type":"string","description":"Project ID","minLength":1},"note":{"type":"string","description":"archive: Why"}},"required":["action","id"],"additionalProperties":false}`)

	// Empty NoteAllBut: the actions are always named.
	msgs := DefaultMessages()
	msgs.NoteAllBut = ""
	got = Merge("action", nil, []Member{
		{Key: "list", Codec: For[pageOnly]()},
		{Key: "get", Codec: For[byID]()},
		{Key: "archive", Codec: For[byID]()},
		{Key: "delete", Codec: For[byID]()},
	}, msgs)
	is.True(strings.Contains(string(got), `"get, archive, delete (required): Project ID"`))
}
