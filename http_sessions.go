package vurb

import (
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// capSessions refuses, with 503 and a Retry-After, a request that would
// open a session while limit sessions are open. Only a stateful POST
// without a session id opens one; every other request passes. Counting
// walks the server's sessions, which costs microseconds at 10,000 and is
// paid only by requests that open a session, themselves a handshake.
func capSessions(next http.Handler, server *mcp.Server, limit int, stateless bool) http.Handler {
	if limit <= 0 || stateless {
		return next
	}
	refusal := "Service Unavailable: the server has " + strconv.Itoa(limit) +
		" sessions open, its limit; retry later, or end sessions you no longer use (DELETE)"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get(sessionIDHeader) == "" &&
			!sessionlessRevision(r.Header.Get(protocolVersionHeader)) && openSessions(server, limit) >= limit {
			w.Header().Set("Retry-After", "30")
			http.Error(w, refusal, http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// openSessions counts server's sessions, up to limit.
func openSessions(server *mcp.Server, limit int) int {
	n := 0
	for range server.Sessions() {
		if n++; n >= limit {
			break
		}
	}
	return n
}
