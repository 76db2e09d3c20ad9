package schema

import (
	"errors"
	"testing"

	"github.com/matryer/is"
)

type listProjects struct {
	WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace ID"`
	Limit       *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
}

func TestCodecSchema(t *testing.T) {
	is := is.New(t)
	c := For[listProjects]()
	is.Equal(string(c.Schema()), `{"type":"object","properties":{"workspace_id":{"type":"string","minLength":1},"limit":{"type":"integer","description":"Page size","minimum":1,"maximum":100}},"required":["workspace_id"],"additionalProperties":false}`)
	fs := c.Fields()
	is.Equal(len(fs), 2)
	is.Equal(fs[0].Name, "workspace_id")
	is.True(fs[0].Required)
	is.Equal(fs[1].Type, "integer")
}

func TestDecodeBasics(t *testing.T) {
	c := For[listProjects]()
	tests := []struct {
		name, in, want string
	}{
		{"ok", `{"workspace_id":"w","limit":5}`, ""},
		{"absent", ``, `workspace_id: is required`},
		{"case", `{"Workspace_ID":"w"}`, `unknown field "Workspace_ID" (did you mean "workspace_id"?); accepted: workspace_id, limit; workspace_id: is required`},
		{"range", `{"workspace_id":"w","limit":1000}`, `limit: must be at most 100`},
		{"array", `[]`, `arguments must be a JSON object, got array`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var v listProjects
			err := c.Decode([]byte(tt.in), &v, DecodeOptions{})
			if tt.want == "" {
				is.NoErr(err)
				return
			}
			var e *Error
			is.True(errors.As(err, &e))
			is.Equal(err.Error(), tt.want)
		})
	}
}

type (
	empty struct{}
	// EmbeddedBase is exported: encoding/json only fills embedded pointers to exported structs.
	EmbeddedBase struct {
		WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace ID"`
	}
	embeddedPtr struct {
		*EmbeddedBase
		Note string `json:"note,omitempty"`
	}
	badEmbeddedPtr struct {
		*tagBase
	}
)

func TestCodecEdgeShapes(t *testing.T) {
	is := is.New(t)
	is.Equal(string(For[empty]().Schema()), `{"type":"object","properties":{},"additionalProperties":false}`)
	is.Equal(For[*empty](), For[empty]()) // pointer or not, one cached Codec
	var e empty
	is.NoErr(For[empty]().Decode(nil, &e, DecodeOptions{}))
	is.Equal(For[empty]().Decode([]byte(`{"x":1}`), &e, DecodeOptions{}).Error(), `unknown field "x"; no fields are accepted`)

	c := For[embeddedPtr]()
	// The promoted field keeps its own required rule, even through a pointer.
	is.Equal(string(c.Schema()), `{"type":"object","properties":{"workspace_id":{"type":"string","minLength":1},"note":{"type":"string"}},"required":["workspace_id"],"additionalProperties":false}`)
	var v embeddedPtr
	is.NoErr(c.Decode([]byte(`{"workspace_id":"w"}`), &v, DecodeOptions{}))
	is.Equal(v.WorkspaceID, "w")

	is.Equal(panicText(func() { For[badEmbeddedPtr]() }),
		`schema: field tagBase (json "tagBase") of badEmbeddedPtr: encoding/json cannot set an embedded pointer to an unexported struct; embed schema.tagBase by value or export it`)
}

func TestFieldsAreCopies(t *testing.T) {
	is := is.New(t)
	c := For[listProjects]()
	fs := c.Fields()
	fs[0].Name = "changed"
	fs[0].Schema[0] = 'X'
	s := c.Schema()
	s[0] = 'X'
	is.Equal(c.Fields()[0].Name, "workspace_id")
	is.Equal(string(c.Fields()[0].Schema), `{"type":"string","minLength":1}`)
	is.Equal(c.Schema()[0], byte('{'))
}
