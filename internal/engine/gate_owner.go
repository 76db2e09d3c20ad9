package engine

import (
	"crypto/rand"
	"encoding/base64"
	"runtime"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// flowOwner is whom a handle is bound to: the verified subject, else the
// session the call came through, else this process (stdio, in
// process), else an anonymous HTTP request's network host. Never a value
// the client chose. (Whose share of the store an instance counts in is
// Origin.CallerKey, as every quota names a caller.)
func (rt *Runtime) flowOwner(o *Origin) string {
	if o.Token != nil && o.Token.UserID != "" {
		return "sub:" + o.Token.UserID
	}
	if key := rt.sessionKey(o); key != "" {
		return key
	}
	if host := o.Host(); host != "" {
		return "host:" + host
	}
	return "anonymous"
}

// sessionKey names the session a call came through: "session:" and the
// id vurb checked (an HTTP session's), or for a go-sdk session without one
// (stdio, in memory) a name vurb gives it for its life; "process:" and
// the process's name for an in-process call; "" for a request without a
// session of its own (HTTP without a session, the go-sdk's stateless
// handler, whose session is made for the request and whose id would be
// the client's).
func (rt *Runtime) sessionKey(o *Origin) string {
	switch {
	case o.Sessionless:
		return ""
	case o.SessionID != "":
		return "session:" + o.SessionID
	case o.Session != nil:
		if id := o.Session.ID(); id != "" {
			return "session:" + id
		}
		return "session:" + rt.sessions.name(o.Session)
	case o.Header == nil:
		return "process:" + rt.sessions.process()
	}
	return ""
}

// newInstanceID returns 16 random bytes, base64url: an instance's id, a
// claim's name.
func newInstanceID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// sessionNames names what an instance keyed by session is keyed by when
// the session has no id of its own: a go-sdk session over stdio or in
// memory, named for as long as it lives, and this process, for in-process
// calls. The names are random, never the client's.
type sessionNames struct {
	once  sync.Once
	proc  string
	names sync.Map // weak.Pointer[mcp.ServerSession] -> string
}

// process names this process, for in-process calls.
func (n *sessionNames) process() string {
	n.once.Do(func() { n.proc = newInstanceID() })
	return n.proc
}

// name names ss; the name goes with the session once it is collected.
func (n *sessionNames) name(ss *mcp.ServerSession) string {
	k := weak.Make(ss)
	if v, ok := n.names.Load(k); ok {
		return v.(string)
	}
	v, loaded := n.names.LoadOrStore(k, newInstanceID())
	if !loaded {
		runtime.AddCleanup(ss, func(k weak.Pointer[mcp.ServerSession]) { n.names.Delete(k) }, k)
	}
	return v.(string)
}
