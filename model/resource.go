package model

import (
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource is a resource a client can read, or a resource template: a
// family of resources whose URIs match a pattern.
type Resource struct {
	entity
	uri         string
	template    bool
	mimeType    string
	size        int64
	annotations *mcp.Annotations
	joined      []*Group
}

// URI returns the resource's URI, or a template's URI template.
func (r *Resource) URI() string { return r.uri }

// IsTemplate reports whether the resource is a resource template.
func (r *Resource) IsTemplate() bool { return r.template }

// MIMEType returns the MIME type of the resource's contents, or "".
func (r *Resource) MIMEType() string { return r.mimeType }

// Size returns the size in bytes of a static resource, or 0 when unknown.
func (r *Resource) Size() int64 { return r.size }

// Annotations returns a copy of the resource's audience, priority and
// last-modified hints, or nil.
func (r *Resource) Annotations() *mcp.Annotations { return copyResourceAnnotations(r.annotations) }

// Parents returns the categories the resource joined.
func (r *Resource) Parents() []*Group { return slices.Clone(r.joined) }

// FQN returns the resource's name: a resource is a leaf, named alone.
func (r *Resource) FQN() string { return r.name }

func copyResourceAnnotations(a *mcp.Annotations) *mcp.Annotations {
	if a == nil {
		return nil
	}
	c := *a
	c.Audience = slices.Clone(a.Audience)
	return &c
}
