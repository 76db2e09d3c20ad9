package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
)

// ScopeChallenges is vurb.WithScopeChallenges; see its documentation there.
func ScopeChallenges() ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithScopeChallenges"); c.challenges = true }
}

// challenger answers, before any other front, a request whose operation
// needs scopes the verified token lacks.
type challenger struct {
	app    *Site
	server *mcp.Server             // its sessions, for the client a session's caller named
	routes map[string]engine.Route // the server's tools, by wire name
	views  *Views                  // per-caller views, nil when every caller sees the same
	bearer *resourceServer         // what the challenge names: the resource metadata, the schemes
}

func (a *Site) challenger(cfg *serveConfig, server *mcp.Server, routes []engine.Route, vs *Views) *challenger {
	ch := &challenger{app: a, server: server, routes: make(map[string]engine.Route, len(routes)), views: vs,
		bearer: cfg.bearer}
	for _, r := range routes {
		ch.routes[r.Wire().Name] = r
	}
	return ch
}

// refuses answers r, whose body is m, with a challenge when the token
// lacks scopes its operations need, and reports whether it did.
func (ch *challenger) refuses(w http.ResponseWriter, r *http.Request, m *wire.Message) bool {
	if m == nil || !m.Whole {
		return false
	}
	need, what := ch.needs(r, m)
	if need == nil {
		return false
	}
	// Scopes hold neither quotes nor backslashes (RFC 6749 §3.3), and the
	// metadata URL is the server's own; what the client named goes in the
	// body only.
	scopes := strings.Join(need, " ")
	params := `scope="` + scopes + `", resource_metadata="` + ch.bearer.metadataURL + `", error_description="this operation needs more scopes"`
	value := challenge("Bearer", `error="insufficient_scope"`, params)
	if at := attemptOf(r.Context()); at != nil && at.scheme == "dpop" {
		value = at.guard.challenge(`error="insufficient_scope"`, params) // the scheme the token came with (RFC 9449 §7.1)
	}
	w.Header().Set("WWW-Authenticate", value)
	http.Error(w, "insufficient scope: "+what+" needs "+scopes, http.StatusForbidden)
	return true
}

// challengedRequest is what the challenge reads of a JSON-RPC request.
type challengedRequest struct {
	Method string
	Params struct {
		Name      string
		URI       string
		Arguments json.RawMessage
		Meta      json.RawMessage
	}
}

// UnmarshalJSON reads the members by their exact names, as the go-sdk
// does: encoding/json would fill Name from "Name" or "NAME" too, and the
// challenge would then judge another call than the server answers.
func (c *challengedRequest) UnmarshalJSON(data []byte) error {
	var e wire.RPC
	if e.Parse(data); c.fromRPC(&e) {
		return nil
	}
	var req, params map[string]json.RawMessage
	if err := json.Unmarshal(data, &req); err != nil {
		return err
	}
	if err := member(req["params"], &params); err != nil {
		return err
	}
	c.Params.Arguments, c.Params.Meta = params["arguments"], params["_meta"]
	return errors.Join(member(req["method"], &c.Method), member(params["name"], &c.Params.Name),
		member(params["uri"], &c.Params.URI))
}

// fromRPC reads the request from the message's parsed envelope, for the
// common request: no key or string written with escapes, which it leaves
// to UnmarshalJSON's decoding.
func (c *challengedRequest) fromRPC(e *wire.RPC) bool {
	if !e.OK || !e.ParamsOK {
		return false
	}
	c.Params.Arguments, c.Params.Meta = e.Args, e.Meta
	ok := true
	for _, m := range []struct {
		raw []byte
		dst *string
	}{{e.Method, &c.Method}, {e.Name, &c.Params.Name}, {e.URI, &c.Params.URI}} {
		if m.raw != nil {
			var plain bool
			*m.dst, plain = wire.PlainString(m.raw)
			ok = ok && plain
		}
	}
	return ok
}

// member decodes raw, a member's value, into dst; an absent member leaves
// dst as it is.
func member(raw json.RawMessage, dst any) error {
	if raw == nil {
		return nil
	}
	return json.Unmarshal(raw, dst)
}

// needs returns every scope the operations of body need when the token
// lacks one of them, and says which operation; nil when it lacks none or
// body is not a request vurb answers (the handler behind then says what is
// wrong with it). A batch is challenged for the scopes of all its
// operations.
func (ch *challenger) needs(r *http.Request, m *wire.Message) (need []string, what string) {
	var reqs []challengedRequest
	body := bytes.TrimSpace(m.Body)
	switch {
	case len(body) > 0 && body[0] == '[':
		if json.Unmarshal(body, &reqs) != nil {
			return nil, ""
		}
	default:
		var one [1]challengedRequest
		e := m.RPC()
		if !e.Valid {
			return nil, ""
		}
		if !one[0].fromRPC(e) {
			one[0] = challengedRequest{}
			if json.Unmarshal(body, &one[0]) != nil {
				return nil, ""
			}
		}
		reqs = one[:]
	}
	token := auth.TokenInfoFromContext(r.Context())
	lacks := false
	var whats []string
	for i := range reqs {
		scopes, target := ch.scopesOf(r, token, &reqs[i])
		if len(scopes) == 0 {
			continue
		}
		if engine.Missing(scopes, token) != nil {
			lacks = true
			whats = append(whats, reqs[i].Method+" "+engine.Truncate(target, 64))
		}
		for _, s := range scopes {
			if !slices.Contains(need, s) {
				need = append(need, s)
			}
		}
	}
	if !lacks {
		return nil, ""
	}
	return need, strings.Join(whats, ", ")
}

// scopesOf returns the scopes the operation req invokes needs, and what it
// targets (the tool, prompt or resource), which a challenge names.
func (ch *challenger) scopesOf(r *http.Request, token *auth.TokenInfo, req *challengedRequest) ([]string, string) {
	switch req.Method {
	case "tools/call":
		name, args := req.Params.Name, req.Params.Arguments
		if inner, innerArgs, ok := ch.app.Plan.Resolve(name, args); ok {
			name, args = inner, innerArgs // a call_tool the front left as it was: a batch's, or a headered tool's
		}
		route := ch.routes[name]
		if route == nil {
			return nil, "" // unknown: the handler says so
		}
		ep := engine.Target(route, args)
		if ep == nil || len(ep.Scopes()) == 0 {
			return nil, ""
		}
		// Only now the caller's own view, which may take a look through
		// the sessions: most calls need no scope.
		if ch.views != nil && ch.views.class != nil {
			o := ch.origin(r, token, req)
			if route = ch.views.route(name, &o); route == nil {
				return nil, "" // unknown to this caller: the handler says so
			}
			if ep = engine.Target(route, args); ep == nil {
				return nil, ""
			}
		}
		return ep.Scopes(), name
	case "prompts/get":
		return ch.app.Plan.Runtime().Scopes, req.Params.Name
	case "resources/read":
		return ch.app.Plan.Runtime().Scopes, req.Params.URI
	}
	return nil, ""
}

// origin is what the handlers behind will know of the caller of req, so
// that its class is the one they judge it by: its _meta (and the client
// and capabilities it names there), its revision, its address, and on a
// session the session and the client that opened it.
func (ch *challenger) origin(r *http.Request, token *auth.TokenInfo, req *challengedRequest) engine.Origin {
	// On a session the handlers see the address that opened it, most
	// likely this one.
	o := engine.Origin{Token: token, Header: r.Header, RawMeta: req.Params.Meta,
		Version: r.Header.Get(wire.ProtocolVersionHeader), Remote: r.RemoteAddr}
	id := r.Header.Get(wire.SessionIDHeader)
	if id == "" {
		var meta map[string]json.RawMessage
		if member(req.Params.Meta, &meta) == nil {
			_ = member(meta[mcp.MetaKeyClientCapabilities], &o.Capabilities)
		}
		return o
	}
	for ss := range ch.server.Sessions() {
		if ss.ID() != id {
			continue
		}
		o.Session = ss
		if p := ss.InitializeParams(); p != nil {
			o.Client, o.Capabilities = p.ClientInfo, p.Capabilities
			if o.Version == "" {
				o.Version = p.ProtocolVersion
			}
		}
		break
	}
	return o
}
