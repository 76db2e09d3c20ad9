// Package vurb builds MCP (Model Context Protocol) servers from typed Go
// handlers. Tools are declared over input structs whose tags carry the
// description, the required flags and the constraints; vurb compiles every
// tool once into an immutable plan and serves it through the official Go SDK.
package vurb
