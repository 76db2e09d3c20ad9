package edge

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// OriginOf is what a go-sdk request says about where it came from; meta
// is its params' _meta, which the caller reads (its params may be nil).
// ctx is the request's: it carries the HTTP client's address of a
// sessionless request (withRemote).
func OriginOf[P mcp.Params](ctx context.Context, req *mcp.ServerRequest[P], meta mcp.Meta) engine.Origin {
	o := engine.Origin{Session: req.Session, Version: req.ProtocolVersion(), Meta: meta,
		Lazy: func(o *engine.Origin) { o.Capabilities, o.Client = req.ClientCapabilities(), req.ClientInfo() }}
	o.Remote, _ = ctx.Value(remoteKey{}).(string)
	o.Sessionless = ctx.Value(sessionlessKey{}) != nil
	if req.Extra != nil {
		o.Token, o.Header = req.Extra.TokenInfo, req.Extra.Header
	}
	return o
}

type remoteKey struct{}

// withRemote gives the go-sdk's handlers the HTTP client's address, in the
// request's context: the go-sdk serves a sessionless request on a
// connection made for it with that context, and a session on one made
// with the context of the request that opened it; it passes the client's
// address nowhere else.
func withRemote(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), remoteKey{}, r.RemoteAddr)))
	})
}

type sessionlessKey struct{}

// sessionlessRequests marks the requests h serves as having no session of
// their own: the go-sdk's stateless handler makes a session for each
// request, whose id (when the go-sdk keeps one) is whatever the client
// sent, so nothing may be keyed by it (a workflow's instance).
func sessionlessRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionlessKey{}, true)))
	})
}

// initializeOrigin is where the initialize request r came from: the
// session table's seam to OriginOf (sessions.Table.Origin).
func initializeOrigin(ctx context.Context, r *mcp.ServerRequest[*mcp.InitializeParams]) engine.Origin {
	return OriginOf(ctx, r, nil)
}
