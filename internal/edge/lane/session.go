package lane

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb/internal/edge/sessions"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
)

// The session lane. Most deployed clients speak the handshake-era
// protocol: initialize, then requests that name the session. Through the
// go-sdk each of those calls crosses the session's JSON-RPC connection and
// a stream made for it; the lane answers a session's plain tools/call and
// tools/list itself, as it does sessionless ones, with the session's facts
// read from the record vurb keeps (internal/edge/sessions). Initialize, GET streams,
// DELETE, notifications, responses, subscriptions and anything unusual
// stay the go-sdk's, and so does a call whose handler reaches for the
// session itself (a log message at a level the client asked for, an input
// request, the session's methods): the engine stops it before anything is
// written (engine.ErrHandover) and the go-sdk runs it again on its
// session, as a handler that asks for input already runs again.

// ServeSession answers r, a POST on the live session of rec whose body is
// m, when the lane may, and reports whether it did; when it did not, it
// wrote nothing.
func (l *Lane) ServeSession(w http.ResponseWriter, r *http.Request, m *wire.Message, rec *store.Session) bool {
	req, ok := l.understandSession(r, m, rec)
	if !ok {
		return false
	}
	if req.method == "tools/list" {
		return l.views == nil && l.list(w, r, req, m.Body)
	}
	return l.answer(w, r, req, engine.Origin{Detached: true, SessionID: rec.ID, Version: rec.Version, Capabilities: rec.Capabilities,
		Client: rec.Client, LogLevel: rec.LogLevel, Remote: rec.Remote, RawMeta: req.meta, Header: r.Header,
		Token: auth.TokenInfoFromContext(r.Context())})
}

// understandSession says whether the lane answers r on the session of
// rec, as the go-sdk's session would: a request that keeps the request
// rules (wire.RequestRules), of the session's own revision, on a session its
// caller may use, of a method and tool the lane serves.
func (l *Lane) understandSession(r *http.Request, m *wire.Message, rec *store.Session) (req laneRequest, ok bool) {
	if l.rules.Check(r.Header, m) != "" {
		return req, false
	}
	if !rec.Initialized || l.wrapped != nil || !sessions.MayUse(rec, auth.TokenInfoFromContext(r.Context())) {
		return req, false
	}
	if wire.SessionlessRevision(r.Header.Get(wire.ProtocolVersionHeader)) {
		return req, false // a session speaks the revision it negotiated
	}
	if !l.parse(m.RPC(), &req) { // a _meta naming capabilities or a client is the go-sdk's
		return req, false
	}
	req.version = rec.Version
	return req, l.serves(req)
}
