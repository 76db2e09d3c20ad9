// Package sessions keeps the records of a server's handshake-era
// sessions and bounds how many there are: the table of the live sessions
// (Table: opened, observed, idled out, ended), their records in a shared
// store.Sessions that every replica reads (loaded, adopted, renewed, and
// saved again when the store lost them), the quota of sessions in all
// and per caller (Quota), and the marks of a request one replica replays
// on another's behalf. It stands apart from the edge, which builds it
// and serves the sessions; what it needs of the rest of the edge (the
// store's health, where a request came from) it names as seams of its
// own (seams.go), so it never imports the edge.
package sessions
