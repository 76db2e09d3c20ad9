// Package lane is the fast lane: it answers the common requests (a plain
// tools/call, tools/list) of a sessionless request, and of a live
// handshake-era session from the record the edge keeps of it, straight
// from the compiled plan, byte for byte as the go-sdk would, and hands
// everything else to the go-sdk before writing anything (lane.go). It
// stands apart from the edge, which builds it (New) and stacks it after
// the tasks front; what it needs of the edge (the per-caller views) it
// names as an interface of its own (Viewer, seams.go), so it never
// imports the edge.
package lane
