// Package guard holds the HTTP front's guards, each an http.Handler or a
// net.Listener that wraps the next and knows nothing of MCP: the client's
// address read from a trusted proxy's headers (ClientAddress), Host and
// Origin against DNS rebinding (HostAndOrigin), and the bound on open
// connections that closes the longest idle one to make room
// (LimitListener). The edge stacks them, in the order its httpServing
// documents; they stand apart so that each is tested alone.
package guard
