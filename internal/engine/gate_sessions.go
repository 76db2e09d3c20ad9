package engine

import (
	"runtime"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

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
