package schema

import (
	"testing"

	"github.com/matryer/is"
)

type (
	defPage struct {
		Limit  int     `json:"limit,omitempty" default:"20" validate:"omitempty,min=1,max=100"`
		Cursor *string `json:"cursor,omitempty" default:"start"`
		Ratio  float64 `json:"ratio,omitempty" default:"0.5"`
		Deep   *bool   `json:"deep,omitempty" default:"true"`
	}
	defFilter struct {
		Field string `json:"field" validate:"required"`
		Op    string `json:"op,omitempty" default:"eq" validate:"omitempty,oneof=eq ne"`
	}
	defQuery struct {
		Page    defPage     `json:"page"`
		Filters []defFilter `json:"filters,omitempty" validate:"omitempty,dive"`
		Sort    *defFilter  `json:"sort,omitempty"`
		// Required only by its rules, which its default satisfies: optional.
		Size int `json:"size" default:"10" validate:"min=1"`
	}
	defBadRule struct {
		Limit int `json:"limit,omitempty" default:"500" validate:"omitempty,max=100"`
	}
	defBadType struct {
		Limit int `json:"limit,omitempty" default:"many"`
	}
	defBadEnum struct {
		Sort string `json:"sort,omitempty" default:"size" enum:"name,date"`
	}
	defRequired struct {
		Name string `json:"name" default:"x" validate:"required"`
	}
	defSlice struct {
		Tags []string `json:"tags,omitempty" default:"a"`
	}
)

// TestDefaultsApplied: an absent property holds its default, in nested
// objects that were sent, behind pointers and in
// list items; a sent value, even zero, is kept.
func TestDefaultsApplied(t *testing.T) {
	is := is.New(t)
	var p defPage
	is.NoErr(For[defPage]().Decode([]byte(`{}`), &p, DecodeOptions{}))
	is.Equal(p.Limit, 20)
	is.Equal(*p.Cursor, "start")
	is.Equal(p.Ratio, 0.5)
	is.Equal(*p.Deep, true)
	var slow defPage
	is.NoErr(For[defPage]().Decode([]byte(`{"deep":false}`), &slow, DecodeOptions{}))
	is.Equal(slow.Limit, 20)
	is.Equal(*slow.Deep, false) // sent: kept

	var q defQuery
	is.NoErr(For[defQuery]().Decode([]byte(`{"page":{"limit":5},"filters":[{"field":"a"},{"field":"b","op":"ne"}]}`), &q, DecodeOptions{}))
	is.Equal(q.Page.Limit, 5)
	is.Equal(*q.Page.Cursor, "start")
	is.Equal(q.Filters[0].Op, "eq")
	is.Equal(q.Filters[1].Op, "ne")
	is.Equal(q.Sort, nil) // not sent: no defaults inside it
	is.Equal(q.Size, 10)
	is.True(!For[defQuery]().Fields()[3].Required)

	s := string(For[defPage]().Schema())
	is.Equal(s, `{"type":"object","properties":{"limit":{"type":"integer","default":20,"minimum":1,"maximum":100},`+
		`"cursor":{"type":"string","default":"start"},"ratio":{"type":"number","default":0.5},"deep":{"type":"boolean","default":true}},"additionalProperties":false}`)
}

// TestDefaultsRefusedAtBuild: a default its own rules reject, that is not
// a value of the field's type, or that could never apply.
func TestDefaultsRefusedAtBuild(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func()
		want string
	}{
		{"rule", func() { For[defBadRule]() },
			`schema: field Limit (json "limit") of defBadRule: default 500 breaks the field's own rule "max=100" (must be at most 100); change the default or the rule`},
		{"type", func() { For[defBadType]() }, `schema: field Limit (json "limit") of defBadType: default "many" is not a valid int`},
		{"enum", func() { For[defBadEnum]() },
			`schema: field Sort (json "sort") of defBadEnum: default "size" is not among the enum values name,date; change the default or the enum`},
		{"required", func() { For[defRequired]() },
			`schema: field Name (json "name") of defRequired: a required field's default never applies; remove the default or make the field optional`},
		{"slice", func() { For[defSlice]() },
			`schema: field Tags (json "tags") of defSlice: the default tag is supported on strings, numbers and booleans (or pointers to them), not on []string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is.New(t).Equal(panicText(tc.fn), tc.want)
		})
	}
}
