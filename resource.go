package vurb

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Contents is what a resource handler returns: text or binary data, and its
// MIME type when it differs from the one declared.
type Contents struct {
	Text     string
	Blob     []byte
	MIMEType string
}

// ResourceDef is one declared resource or resource template; its methods
// refine it until the app is built.
type ResourceDef struct {
	app        *App
	resource   *mcp.Resource         // static resources
	template   *mcp.ResourceTemplate // templates
	pattern    uriTemplate
	read       func(ctx context.Context, uri string, vars map[string]string) (Contents, error)
	completers map[string]Completer
}

// Resource declares a static resource at uri. read is called on each
// resources/read.
func Resource(a *App, uri, name string, read func(ctx context.Context) (Contents, error)) *ResourceDef {
	a.mustBeMutable()
	if read == nil {
		panic(fmt.Sprintf("vurb: resource %q: nil handler", uri))
	}
	a.mustBeNewResource(uri)
	r := &ResourceDef{app: a, resource: &mcp.Resource{URI: uri, Name: name},
		read: func(ctx context.Context, _ string, _ map[string]string) (Contents, error) { return read(ctx) }}
	a.resources = append(a.resources, r)
	return r
}

// ResourceTemplate declares a family of resources whose URIs match
// uriTemplate, such as "users://{id}" or "files://{dir}/{name}.txt". Each
// {variable} matches one or more characters other than '/'; read receives
// the values. Only such simple variables are supported (RFC 6570 level 1).
func ResourceTemplate(a *App, uriTemplate, name string, read func(ctx context.Context, vars map[string]string) (Contents, error)) *ResourceDef {
	a.mustBeMutable()
	if read == nil {
		panic(fmt.Sprintf("vurb: resource template %q: nil handler", uriTemplate))
	}
	a.mustBeNewResource(uriTemplate)
	pattern, err := parseURITemplate(uriTemplate)
	if err != nil {
		panic(fmt.Sprintf("vurb: resource template %q: %v", uriTemplate, err))
	}
	r := &ResourceDef{app: a, template: &mcp.ResourceTemplate{URITemplate: uriTemplate, Name: name}, pattern: pattern,
		read: func(ctx context.Context, _ string, vars map[string]string) (Contents, error) { return read(ctx, vars) }}
	a.resources = append(a.resources, r)
	return r
}

func (a *App) mustBeNewResource(uri string) {
	for _, r := range a.resources {
		if r.uri() == uri {
			panic(fmt.Sprintf("vurb: resource %q is already declared", uri))
		}
	}
}

func (r *ResourceDef) uri() string {
	if r.resource != nil {
		return r.resource.URI
	}
	return r.template.URITemplate
}

// Describe sets the resource's description.
func (r *ResourceDef) Describe(description string) *ResourceDef {
	r.app.mustBeMutable()
	if r.resource != nil {
		r.resource.Description = description
	} else {
		r.template.Description = description
	}
	return r
}

// Title sets the resource's human-readable title.
func (r *ResourceDef) Title(title string) *ResourceDef {
	r.app.mustBeMutable()
	if r.resource != nil {
		r.resource.Title = title
	} else {
		r.template.Title = title
	}
	return r
}

// MIMEType declares the MIME type of the resource's contents.
func (r *ResourceDef) MIMEType(mime string) *ResourceDef {
	r.app.mustBeMutable()
	if r.resource != nil {
		r.resource.MIMEType = mime
	} else {
		r.template.MIMEType = mime
	}
	return r
}

// Size declares the size in bytes of a static resource, so a client can
// decide before reading it.
func (r *ResourceDef) Size(n int64) *ResourceDef {
	r.app.mustBeMutable()
	if r.resource == nil {
		panic(fmt.Sprintf("vurb: resource template %q: only static resources have a size", r.template.URITemplate))
	}
	r.resource.Size = n
	return r
}

// Annotations sets the audience, priority and last-modified hints.
func (r *ResourceDef) Annotations(ann *mcp.Annotations) *ResourceDef {
	r.app.mustBeMutable()
	if r.resource != nil {
		r.resource.Annotations = ann
	} else {
		r.template.Annotations = ann
	}
	return r
}

// Complete registers a completer for one of a template's variables.
func (r *ResourceDef) Complete(variable string, c Completer) *ResourceDef {
	r.app.mustBeMutable()
	if r.template == nil || !r.pattern.has(variable) {
		panic(fmt.Sprintf("vurb: resource %q has no template variable %q to complete", r.uri(), variable))
	}
	if r.completers == nil {
		r.completers = map[string]Completer{}
	}
	r.completers[variable] = c
	return r
}

// register adds the resource to an SDK server.
func (r *ResourceDef) register(s *mcp.Server) {
	handler := func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		var vars map[string]string
		if r.template != nil {
			var ok bool
			if vars, ok = r.pattern.match(uri); !ok {
				return nil, mcp.ResourceNotFoundError(uri)
			}
		}
		c, err := r.read(ctx, uri, vars)
		if err != nil {
			return nil, err
		}
		mime := c.MIMEType
		if mime == "" && r.resource != nil {
			mime = r.resource.MIMEType
		} else if mime == "" {
			mime = r.template.MIMEType
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: c.Text, Blob: c.Blob}}}, nil
	}
	if r.resource != nil {
		s.AddResource(r.resource, handler)
	} else {
		s.AddResourceTemplate(r.template, handler)
	}
}

// uriTemplate is a parsed level-1 URI template: literals and variables in
// alternation, starting and ending with a literal (possibly empty).
type uriTemplate struct {
	literals []string
	vars     []string
}

func parseURITemplate(s string) (uriTemplate, error) {
	var t uriTemplate
	rest := s
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			if strings.IndexByte(rest, '}') >= 0 {
				return t, fmt.Errorf("unbalanced '}'")
			}
			t.literals = append(t.literals, rest)
			return t, nil
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return t, fmt.Errorf("unclosed '{'")
		}
		name := rest[open+1 : open+end]
		if why := checkSegmentName(name); why != "" {
			return t, fmt.Errorf("variable {%s}: only simple {name} variables are supported (%s)", name, why)
		}
		if len(t.vars) > 0 && open == 0 {
			return t, fmt.Errorf("variables {%s} and {%s} must be separated by a literal", t.vars[len(t.vars)-1], name)
		}
		t.literals = append(t.literals, rest[:open])
		t.vars = append(t.vars, name)
		rest = rest[open+end+1:]
	}
}

func (t uriTemplate) has(name string) bool {
	for _, v := range t.vars {
		if v == name {
			return true
		}
	}
	return false
}

// match extracts the variables of uri, each the shortest run of characters
// other than '/' up to the next literal.
func (t uriTemplate) match(uri string) (map[string]string, bool) {
	if !strings.HasPrefix(uri, t.literals[0]) {
		return nil, false
	}
	rest := uri[len(t.literals[0]):]
	vars := make(map[string]string, len(t.vars))
	for i, name := range t.vars {
		next := t.literals[i+1]
		var end int
		if next == "" && i == len(t.vars)-1 {
			end = len(rest)
		} else if next == "" {
			return nil, false
		} else {
			end = strings.Index(rest, next)
		}
		if end <= 0 || strings.IndexByte(rest[:end], '/') >= 0 {
			return nil, false
		}
		vars[name] = rest[:end]
		rest = rest[end+len(next):]
	}
	return vars, rest == ""
}
