package schema

import (
	"testing"

	"github.com/matryer/is"
)

type impliedInput struct {
	WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace ID"`
	DueDate     string `json:"dueDate,omitempty" description:"Due date."`
	ProjectID   string `json:"id,omitempty" description:"Project ID"`
	Status      string `json:"status" validate:"required,oneof=open done"`
	Code        string `json:"code" validate:"required,min=2,oneof=a bb"`
	Level       string `json:"level,omitempty" validate:"omitempty,max=5,oneof=low high"`
}

// TestStatedOnce: a schema leaves out a keyword something else in it
// already says, and keeps every one that says more.
func TestStatedOnce(t *testing.T) {
	is := is.New(t)
	got := string(For[impliedInput]().Schema())
	is.Equal(got, `{"type":"object","properties":{`+
		`"workspace_id":{"type":"string","minLength":1},`+ // "Workspace ID" repeats the name
		`"dueDate":{"type":"string"},`+ // so does "Due date."
		`"id":{"type":"string","description":"Project ID"},`+ // says what the id is of
		`"status":{"type":"string","enum":["open","done"]},`+ // no enum value is empty
		`"code":{"type":"string","enum":["a","bb"],"minLength":2},`+ // refuses "a"
		`"level":{"type":"string","enum":["low","high"]}},`+ // no value is longer than 5
		`"required":["workspace_id","status","code"],"additionalProperties":false}`)
}

func TestSameWords(t *testing.T) {
	for _, tt := range []struct {
		desc, name string
		same       bool
	}{
		{"Workspace ID", "workspace_id", true},
		{"Workspace ID.", "workspaceId", true},
		{"due-date", "due_date", true},
		{"ID", "id", true},
		{"Project ID", "id", false},
		{"Workspace", "workspace_id", false},
		{"Page size", "limit", false},
		{"", "x", false},
	} {
		if got := sameWords(tt.desc, tt.name); got != tt.same {
			t.Errorf("sameWords(%q, %q) = %v, want %v", tt.desc, tt.name, got, tt.same)
		}
	}
}
