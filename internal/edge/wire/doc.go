// Package wire is the serving edge's HTTP wire, shared by every front
// vurb answers itself (the fast lane, the session lane, the tasks front):
// a POST's body read once and its JSON-RPC envelope parsed once
// (Message), the one list of request rules each front applies before it
// takes a request (RequestRules), and answers written as the go-sdk's
// stateless handler writes them, byte for byte (Encoder). It stands apart
// so that no front can read a request or write an answer its own way; it
// imports nothing of the edge.
package wire
