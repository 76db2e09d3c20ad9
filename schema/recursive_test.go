package schema

import (
	"testing"

	"github.com/matryer/is"
)

type (
	treeNode struct {
		Name     string     `json:"name" validate:"required"`
		Children []treeNode `json:"children,omitempty" validate:"omitempty,dive"`
	}
	treeInput struct {
		Root *treeNode `json:"root,omitempty"`
	}
	// selfRef refers to itself at the root: the root becomes a definition too.
	selfRef struct {
		Label string   `json:"label,omitempty"`
		Next  *selfRef `json:"next,omitempty" description:"The next link"`
	}
	mutualA struct {
		B *mutualB `json:"b,omitempty"`
	}
	mutualB struct {
		A   *mutualA `json:"a,omitempty"`
		Val int      `json:"val,omitempty"`
	}
)

func TestRecursiveSchemas(t *testing.T) {
	tests := []struct {
		name string
		c    *Codec
		want string
	}{
		{"nested", For[treeInput](), `{"type":"object","properties":{"root":{"$ref":"#/$defs/treeNode"}},"additionalProperties":false,` +
			`"$defs":{"treeNode":{"type":"object","properties":{"name":{"type":"string","minLength":1},"children":{"type":"array","items":{"$ref":"#/$defs/treeNode"}}},"required":["name"],"additionalProperties":false}}}`},
		{"root", For[selfRef](), `{"type":"object","properties":{"label":{"type":"string"},"next":{"description":"The next link","allOf":[{"$ref":"#/$defs/selfRef"}]}},"additionalProperties":false,` +
			`"$defs":{"selfRef":{"type":"object","properties":{"label":{"type":"string"},"next":{"description":"The next link","allOf":[{"$ref":"#/$defs/selfRef"}]}},"additionalProperties":false}}}`},
		{"mutual", For[mutualA](), `{"type":"object","properties":{"b":{"$ref":"#/$defs/mutualB"}},"additionalProperties":false,` +
			`"$defs":{"mutualB":{"type":"object","properties":{"a":{"$ref":"#/$defs/mutualA"},"val":{"type":"integer"}},"additionalProperties":false},` +
			`"mutualA":{"type":"object","properties":{"b":{"$ref":"#/$defs/mutualB"}},"additionalProperties":false}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is.New(t).Equal(string(tt.c.Schema()), tt.want)
		})
	}
}

func TestRecursiveDecode(t *testing.T) {
	c := For[treeInput]()
	tests := []struct{ in, want string }{
		{`{"root":{"name":"a","children":[{"name":"b","children":[{"name":"c"}]}]}}`, ``},
		{`{"root":{"name":"a","children":[{"name":"b","children":[{"nam":"c"}]}]}}`,
			`root.children[0].children[0]: unknown field "nam" (did you mean "name"?); accepted: name, children; root.children[0].children[0].name: is required`},
		{`{"root":{"name":"a","children":[{"name":""}]}}`, `root.children[0].name: must not be empty`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			is := is.New(t)
			var v treeInput
			err := c.Decode([]byte(tt.in), &v, DecodeOptions{})
			if tt.want == "" {
				is.NoErr(err)
				return
			}
			is.Equal(err.Error(), tt.want)
		})
	}
}
