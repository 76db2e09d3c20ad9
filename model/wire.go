package model

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Lists is what a server lists: its tools, prompts, resources and resource
// templates, as the go-sdk's client returns them.
type Lists struct {
	Tools     []*mcp.Tool
	Prompts   []*mcp.Prompt
	Resources []*mcp.Resource
	Templates []*mcp.ResourceTemplate
}

// FromServer builds the model of a server seen only on the wire: its tools
// (in no exposition: Exposition returns ""), prompts and resources, with no
// groups and no actions. Nils in the lists are skipped. It returns an error
// when the server lists two tools, prompts or resources under one name.
func FromServer(server Server, lists Lists, opts ...Option) (*Model, error) {
	b := NewBuilder(server, opts...)
	for _, t := range lists.Tools {
		if t != nil {
			b.Tool("", t)
		}
	}
	for _, p := range lists.Prompts {
		if p != nil {
			b.Prompt(p)
		}
	}
	for _, r := range lists.Resources {
		if r != nil {
			b.Resource(r)
		}
	}
	for _, r := range lists.Templates {
		if r != nil {
			b.Template(r)
		}
	}
	return b.Build()
}
