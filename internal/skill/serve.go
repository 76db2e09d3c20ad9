package skill

import (
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/skills"
)

// How skills are served, on every transport and both protocol
// generations alike, through the go-sdk:
//
//   - the capabilities declare io.modelcontextprotocol/skills, with
//     directoryRead: the server answers resources/directory/read;
//   - every file of every skill is a resource of the server; resources/list
//     shows each skill's SKILL.md (its name and description from the
//     front matter), not its other files, which a client reaches from the
//     skill's entry;
//   - skills/list, skills/get and resources/directory/read are custom
//     methods of the go-sdk's server, answered by a receiving middleware:
//     a custom method's handler is not given the request's verified token
//     and headers, which decide what the caller sees;
//   - the fast lane answers tools only: it hands these requests to the
//     go-sdk, as it does every method it does not serve.

// skillsPageSize bounds a page of skills/list, and skillsPageFiles the
// files its entries list (a page holds one skill at least).
const (
	skillsPageSize  = 50
	skillsPageFiles = 2048
)

// Capabilities is caps (the go-sdk's default when nil) declaring the
// skills extension, when the set holds skills; caps itself is not
// changed.
func (set *Set) Capabilities(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	if set.Empty() {
		return caps
	}
	out := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}} // the go-sdk's default
	if caps != nil {
		c := *caps
		c.Extensions = maps.Clone(c.Extensions)
		out = &c
	}
	out.AddExtension(skills.Extension, map[string]any{"directoryRead": true})
	return out
}

// Serve gives server the set's skills: their files as resources, the
// extension's methods, and the middleware that answers them and keeps
// resources/list to what each caller may see. cacheable is the server's
// SetCacheable; cfg gives the index's config, asked once, the first time
// the set is served.
func (set *Set) Serve(server *mcp.Server, rt *engine.Runtime, cacheable func(context.Context, mcp.Request, *mcp.Cacheable), cfg func() Config) {
	if set.Empty() {
		return
	}
	x := set.skillIndex(cfg)
	for uri, f := range x.files {
		res := &mcp.Resource{URI: uri, Name: f.f.rel, MIMEType: f.f.mime, Size: int64(len(f.f.data))}
		if f.entry {
			res.Name, res.Description = f.owner.def.name, f.owner.def.description
		}
		server.AddResource(res, x.read(rt, f))
	}
	mustAdd(mcp.AddReceivingCustomMethod(server, skills.MethodList, unreached[*skills.ListParams, *skills.ListResult]))
	mustAdd(mcp.AddReceivingCustomMethod(server, skills.MethodGet, unreached[*skills.GetParams, *skills.GetResult]))
	mustAdd(mcp.AddReceivingCustomMethod(server, skills.MethodReadDirectory, unreached[*skills.ReadDirectoryParams, *skills.ReadDirectoryResult]))
	server.AddReceivingMiddleware(x.middleware(rt, cacheable))
}

func mustAdd(err error) {
	if err != nil {
		panic("vurb: " + err.Error())
	}
}

// unreached is the go-sdk handler of the extension's methods, which the
// middleware answers before it.
func unreached[P, R any](context.Context, *mcp.ServerSession, P) (R, error) {
	var zero R
	return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "vurb: the skills middleware did not answer"}
}

// middleware answers the extension's methods, and drops from
// resources/list what the caller may not list: skills' files other than
// SKILL.md, and the SKILL.md of skills it does not see.
func (x *skillIndex) middleware(rt *engine.Runtime, cacheable func(context.Context, mcp.Request, *mcp.Cacheable)) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch r := req.(type) {
			case *mcp.ServerRequest[*skills.ListParams]:
				return x.list(ctx, r, cacheable)
			case *mcp.ServerRequest[*skills.GetParams]:
				return x.get(ctx, rt, r, cacheable)
			case *mcp.ServerRequest[*skills.ReadDirectoryParams]:
				return x.readDir(ctx, rt, r)
			case *mcp.ListResourcesRequest:
				res, err := next(ctx, method, req)
				if lr, ok := res.(*mcp.ListResourcesResult); ok && err == nil && lr != nil {
					var meta mcp.Meta
					if r.Params != nil {
						meta = r.Params.Meta
					}
					o := x.origin(ctx, r, meta)
					return x.filterList(lr, &o), nil
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	}
}

// list answers skills/list: a page of the skills the caller lists, each
// entry without the nested skills' files it may not read.
func (x *skillIndex) list(ctx context.Context, r *mcp.ServerRequest[*skills.ListParams], cacheable func(context.Context, mcp.Request, *mcp.Cacheable)) (mcp.Result, error) {
	if r.Params == nil {
		// JSON-RPC lets a request leave params out; the go-sdk's readers
		// of a request's _meta need a value to read.
		c := *r
		c.Params = &skills.ListParams{}
		r = &c
	}
	meta, cursor := r.Params.Meta, r.Params.Cursor
	o := x.origin(ctx, r, meta)
	seen := x.seenBy(&o)
	var shown []*indexedSkill
	for _, s := range x.skills {
		if granted(s, seen, &o) {
			shown = append(shown, s)
		}
	}
	start, err := parseCursor("skills/list", cursor, len(shown), x.maxEcho)
	if err != nil {
		return nil, err
	}
	res := &skills.ListResult{Skills: []*skills.Entry{}, ResultType: resultType(r)}
	files := 0
	for _, s := range shown[start:] {
		e := entryFor(s, seen, &o)
		if len(res.Skills) == skillsPageSize || len(res.Skills) > 0 && files+len(e.Resources) > skillsPageFiles {
			res.NextCursor = makeCursor(start + len(res.Skills))
			break
		}
		res.Skills = append(res.Skills, e)
		files += len(e.Resources)
	}
	setCacheable(ctx, r, &res.Cacheable, cacheable)
	return res, nil
}

// get answers skills/get: the entry, without the nested skills' files
// the caller may not read.
func (x *skillIndex) get(ctx context.Context, rt *engine.Runtime, r *mcp.ServerRequest[*skills.GetParams], cacheable func(context.Context, mcp.Request, *mcp.Cacheable)) (mcp.Result, error) {
	if r.Params == nil || r.Params.URI == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "skills/get: params.uri must be the URI of a skill's SKILL.md"}
	}
	uri := r.Params.URI
	o := x.origin(ctx, r, r.Params.Meta)
	s := x.byURI[uri]
	seen := x.seenBy(&o)
	known, missing := false, []string(nil)
	if s != nil {
		known, missing = access(s, seen, &o)
	}
	if !known {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("skills/get: no skill is served at %q", engine.Truncate(uri, x.maxEcho))}
	}
	if missing != nil {
		return nil, refused(rt, "skill "+s.def.path, missing)
	}
	res := &skills.GetResult{Skill: entryFor(s, seen, &o), ResultType: resultType(r)}
	setCacheable(ctx, r, &res.Cacheable, cacheable)
	return res, nil
}

// read is the resources/read handler of a skill's file.
func (x *skillIndex) read(rt *engine.Runtime, f *indexedFile) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		o := x.origin(ctx, req, req.Params.Meta)
		known, missing := access(f.owner, x.seenBy(&o), &o)
		if !known {
			return nil, mcp.ResourceNotFoundError(req.Params.URI) // as for a URI never served
		}
		if missing != nil {
			return nil, refused(rt, "resource "+engine.Truncate(f.f.uri, x.maxEcho), missing)
		}
		c := &mcp.ResourceContents{URI: f.f.uri, MIMEType: f.f.mime}
		if utf8.Valid(f.f.data) {
			c.Text = string(f.f.data) // the same bytes, which the digest covers
		} else {
			c.Blob = f.f.data
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
	}
}

// filterList is lr without what the caller may not list.
func (x *skillIndex) filterList(lr *mcp.ListResourcesResult, o *engine.Origin) *mcp.ListResourcesResult {
	seen := x.seenBy(o)
	out := *lr
	out.Resources = make([]*mcp.Resource, 0, len(lr.Resources))
	for _, r := range lr.Resources {
		if f := x.files[r.URI]; f != nil && (!f.entry || !granted(f.owner, seen, o)) {
			continue
		}
		out.Resources = append(out.Resources, r)
	}
	return &out
}

// setCacheable settles a skills result's ttlMs and cacheScope with the
// server's SetCacheable, as the go-sdk does for its own results.
func setCacheable(ctx context.Context, req mcp.Request, c *mcp.Cacheable, cacheable func(context.Context, mcp.Request, *mcp.Cacheable)) {
	if cacheable != nil {
		cacheable(ctx, req, c)
	}
	if c.CacheScope == "" {
		c.CacheScope = "public"
	}
}

// Cacheable sets how long a client may cache the answer to a request
// about skills, and for whom, as for the app's other lists: listTTL and
// "public", unless what a caller sees depends on who it is, then
// "private" and stale at once. It reports whether req is such a request.
// cfg is as for Serve.
func (set *Set) Cacheable(req mcp.Request, c *mcp.Cacheable, listTTL int, cfg func() Config) bool {
	if set.Empty() {
		return false
	}
	x := set.skillIndex(cfg)
	switch r := req.(type) {
	case *mcp.ServerRequest[*skills.ListParams], *mcp.ServerRequest[*skills.GetParams]:
	case *mcp.ReadResourceRequest:
		if r.Params == nil || x.files[r.Params.URI] == nil {
			return false
		}
	case *mcp.ListResourcesRequest:
		if !x.perCaller {
			return false
		}
	default:
		return false
	}
	c.TTLMs, c.CacheScope = listTTL, "public"
	if x.perCaller {
		c.TTLMs, c.CacheScope = 0, "private"
	}
	return true
}

// resultType is "complete" for a request of revision 2026-07-28 or later,
// as the go-sdk sets on its own results, "" before.
func resultType(r interface{ ProtocolVersion() string }) string {
	if engine.Sessionless(r.ProtocolVersion()) {
		return "complete"
	}
	return ""
}

// makeCursor is the opaque cursor of the page starting at i.
func makeCursor(i int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("vurb:" + strconv.Itoa(i)))
}

// parseCursor is the position cursor names in a list of n, 0 for "";
// an error quotes at most maxEcho bytes of it.
func parseCursor(method, cursor string, n, maxEcho int) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	bad := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("%s: invalid cursor %q: pass back a nextCursor the server sent", method, engine.Truncate(cursor, maxEcho))}
	if len(cursor) > 32 {
		return 0, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, bad
	}
	digits, ok := strings.CutPrefix(string(raw), "vurb:")
	i, err := strconv.Atoi(digits)
	if !ok || err != nil || i <= 0 || i > n {
		return 0, bad
	}
	return i, nil
}
