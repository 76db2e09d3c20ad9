package vurb

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/manifest"
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
	app         *App
	uri         string // the URI, or the URI template
	name        string
	title       string
	description string
	mimeType    string
	size        int64
	annotations *mcp.Annotations
	template    bool
	pattern     uriTemplate // templates only
	read        func(ctx context.Context, vars map[string]string) (Contents, error)
	completers  map[string]Completer
	ttl         time.Duration // see TTL
	public      bool
	categories  []*Category // the categories it joined (category.go)
}

// Resource declares a static resource at uri. read is called on each
// resources/read.
func Resource(a *App, uri, name string, read func(ctx context.Context) (Contents, error)) *ResourceDef {
	if read == nil {
		panic(fmt.Sprintf("vurb: resource %q: nil handler", uri))
	}
	return a.addResource(&ResourceDef{uri: uri, name: name,
		read: func(ctx context.Context, _ map[string]string) (Contents, error) { return read(ctx) }})
}

// ResourceTemplate declares a family of resources whose URIs match
// uriTemplate, such as "users://{id}" or "files://{dir}/{name}.txt". Each
// {variable} matches one or more characters other than '/'; read receives
// the values. Only such simple variables are supported (RFC 6570 level 1).
// A value that could climb out of a folder when joined to a path ("." or
// "..", encoded or not, or one holding an encoded '/' or a '\\') matches
// nothing, so read never sees one.
//
// To say a URI names nothing, read returns mcp.ResourceNotFoundError(uri)
// (the protocol's resource-not-found code); any other plain error reaches
// the client as an internal error with a reference, its text in the app's
// log.
func ResourceTemplate(a *App, uriTemplate, name string, read func(ctx context.Context, vars map[string]string) (Contents, error)) *ResourceDef {
	if read == nil {
		panic(fmt.Sprintf("vurb: resource template %q: nil handler", uriTemplate))
	}
	pattern, err := parseURITemplate(uriTemplate)
	if err != nil {
		panic(fmt.Sprintf("vurb: resource template %q: %v", uriTemplate, err))
	}
	return a.addResource(&ResourceDef{uri: uriTemplate, name: name, template: true, pattern: pattern, read: read})
}

func (a *App) addResource(r *ResourceDef) *ResourceDef {
	a.mustBeMutable()
	for _, other := range a.resources {
		if other.uri == r.uri {
			panic(fmt.Sprintf("vurb: resource %q is already declared", r.uri))
		}
	}
	r.app = a
	a.resources = append(a.resources, r)
	return r
}

// Describe sets the resource's description.
func (r *ResourceDef) Describe(description string) *ResourceDef {
	r.app.mustBeMutable()
	r.description = description
	return r
}

// Title sets the resource's human-readable title.
func (r *ResourceDef) Title(title string) *ResourceDef {
	r.app.mustBeMutable()
	r.title = title
	return r
}

// MIMEType declares the MIME type of the resource's contents.
func (r *ResourceDef) MIMEType(mime string) *ResourceDef {
	r.app.mustBeMutable()
	r.mimeType = mime
	return r
}

// Size declares the size in bytes of a static resource, so a client can
// decide before reading it.
func (r *ResourceDef) Size(n int64) *ResourceDef {
	r.app.mustBeMutable()
	if r.template {
		panic(fmt.Sprintf("vurb: resource template %q: only static resources have a size", r.uri))
	}
	r.size = n
	return r
}

// Annotations sets the audience, priority and last-modified hints.
func (r *ResourceDef) Annotations(ann *mcp.Annotations) *ResourceDef {
	r.app.mustBeMutable()
	r.annotations = ann
	return r
}

// Complete registers a completer for one of a template's variables.
func (r *ResourceDef) Complete(variable string, c Completer) *ResourceDef {
	r.app.mustBeMutable()
	if !r.template || !r.pattern.has(variable) {
		panic(fmt.Sprintf("vurb: resource %q has no template variable %q to complete", r.uri, variable))
	}
	if r.completers == nil {
		r.completers = map[string]Completer{}
	}
	r.completers[variable] = c
	return r
}

// matches reports whether uri names this resource.
func (r *ResourceDef) matches(uri string) bool {
	if !r.template {
		return uri == r.uri
	}
	_, ok := r.pattern.match(uri)
	return ok
}

// register adds the resource to an SDK server whose plan has runtime rt.
func (r *ResourceDef) register(s *mcp.Server, rt *engine.Runtime) {
	bind := "resource:" + r.uri
	handler := func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		var vars map[string]string
		if r.template {
			var ok bool
			if vars, ok = r.pattern.match(uri); !ok {
				return nil, mcp.ResourceNotFoundError(uri)
			}
		}
		o := originOf(ctx, req, req.Params.Meta)
		o.Answers, o.RequestState = req.Params.InputResponses, req.Params.RequestState
		ctx, round, err := roundFor(ctx, rt, bind, o, uri)
		if err != nil {
			return nil, err
		}
		c, err := r.read(ctx, vars)
		if asked, sealed, ok, sealErr := inputRequired(rt, round, err); ok {
			if sealErr != nil {
				return nil, sealErr
			}
			return &mcp.ReadResourceResult{InputRequests: asked, RequestState: sealed}, nil
		}
		if err != nil {
			return nil, fault.HandlerError(rt, "resource "+engine.Truncate(uri, 256), err)
		}
		mime := c.MIMEType
		if mime == "" {
			mime = r.mimeType
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: c.Text, Blob: c.Blob}}}, nil
	}
	if r.template {
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: r.uri, Name: r.name, Title: r.title,
			Description: r.description, MIMEType: r.mimeType, Annotations: r.annotations}, handler)
		return
	}
	s.AddResource(&mcp.Resource{URI: r.uri, Name: r.name, Title: r.title, Description: r.description,
		MIMEType: r.mimeType, Size: r.size, Annotations: r.annotations}, handler)
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
		if why := engine.CheckSegmentName(name); why != "" {
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
// other than '/' up to the next literal. A value that could climb out of
// a folder when a handler joins it to a path ("." or "..", or holding an
// encoded '/' or '\\' or a '\\') matches nothing: a simple {name}
// expansion (RFC 6570 level 1) never produces one.
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
		if end <= 0 || strings.IndexByte(rest[:end], '/') >= 0 || climbs(rest[:end]) {
			return nil, false
		}
		vars[name] = rest[:end]
		rest = rest[end+len(next):]
	}
	return vars, rest == ""
}

// climbs reports whether a template variable's value could name a folder
// above the one it is joined to: "." or ".." (encoded or not), or a value
// holding a separator, encoded or not.
func climbs(v string) bool {
	decoded, err := url.PathUnescape(v)
	if err != nil {
		return true
	}
	return decoded == "." || decoded == ".." || strings.ContainsAny(decoded, "/\\") || strings.ContainsRune(v, '\\')
}

// PublishManifest declares a resource at manifest.URI ("vurb://manifest")
// whose contents are the app's manifest (application/json): its tools in
// both expositions, its actions, groups, prompts and resources. Tools that
// see only the wire, such as `vurb inspect`, read it to show what
// tools/list cannot: the other exposition, the actions behind a grouped
// tool, the categories, the scopes each action needs (RequireScopes).
//
// The manifest describes what opts select (WithIncludeTags,
// WithIncludeGroups, ...): pass the options the app is served with, so
// that it names no action the server hides. Each caller reads the manifest
// of what it sees: an action its token lacks the scopes for
// (RequireScopes) or its class does not see (WithVisibility) is not in it,
// as it is not in its tools/list. WithScopeChallenges keeps the former in
// lists: pass it here too, and they stay in the manifest. Each manifest is
// computed from the built app at the first read by a caller who sees it,
// and kept for the next ones; past 64 kinds of caller, a kept one gives
// way, to be computed again when asked for.
func (a *App) PublishManifest(opts ...ServeOption) *ResourceDef {
	// WithScopeChallenges, HTTP's own, decides what lists show: the
	// manifest shows what they do.
	edge.MustNotNeedHTTP("PublishManifest", serveOptions(opts), "WithScopeChallenges")
	docs := &manifests{app: a, opts: opts}
	return Resource(a, manifest.URI, "vurb-manifest", func(ctx context.Context) (Contents, error) {
		data, err := docs.of(CallerFrom(ctx))
		return Contents{Text: string(data)}, err
	}).Title("vurb manifest").
		Describe("What this server offers, as `vurb manifest` writes it: tools in both expositions, actions, groups, prompts and resources.").
		MIMEType("application/json")
}

// manifests are the published manifests, one per view of the app's
// actions that its callers have.
type manifests struct {
	app  *App
	opts []ServeOption
	once sync.Once
	list edge.Lister

	mu   sync.Mutex
	docs map[string][]byte
}

// of returns the manifest of what c sees.
func (m *manifests) of(c *Caller) ([]byte, error) {
	m.once.Do(func() { m.list = m.app.site().Lister(serveOptions(m.opts)) })
	o := c.origin()
	key, allow := m.list(&o)
	m.mu.Lock()
	data, ok := m.docs[key]
	m.mu.Unlock()
	if ok {
		return data, nil
	}
	data, err := manifest.Of(m.app.modelOf(allow, nil)).Marshal()
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.docs == nil {
		m.docs = map[string][]byte{}
	}
	if len(m.docs) >= maxManifests {
		for k := range m.docs { // any one: the views callers keep asking for come back
			delete(m.docs, k)
			break
		}
	}
	m.docs[key] = data
	return data, nil
}

// maxManifests bounds the manifests kept: each is a whole document (tens
// of KB for a large app), and a caller who may ask for any set of scopes
// could otherwise make many.
const maxManifests = 64
