package engine

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrUnsupported is wrapped by the error of a request that needs a client
// capability the client did not declare.
var ErrUnsupported = errors.New("vurb: the client did not declare a capability this request needs")

// Capability names a client capability a handler may need.
type Capability string

// The client capabilities a handler can ask for input through.
const (
	Elicitation Capability = "elicitation"
	Sampling    Capability = "sampling"
	Roots       Capability = "roots"
)

// Declared reports whether caps declares c. A nil caps counts as declaring
// everything: see Round.Declares for when capabilities are unknown.
func (c Capability) Declared(caps *mcp.ClientCapabilities) bool {
	if caps == nil {
		return true
	}
	switch c {
	case Elicitation:
		return caps.Elicitation != nil
	case Sampling:
		return caps.Sampling != nil
	case Roots:
		return caps.RootsV2 != nil || caps.Roots.ListChanged
	}
	return false
}

// MissingCapabilityError is a request that needs a capability the client
// did not declare. Returned by a handler, it is the protocol error the MCP
// spec requires (-32021, MissingRequiredClientCapability, with the
// capabilities it needs), and it matches ErrUnsupported.
type MissingCapabilityError struct {
	Capability Capability
	// For names what needed it: an input request's id, or "".
	For string
}

func (e *MissingCapabilityError) Error() string {
	if e.For != "" {
		return fmt.Sprintf("the client did not declare the %s capability, which %q needs", e.Capability, e.For)
	}
	return fmt.Sprintf("the client did not declare the %s capability, which this request needs", e.Capability)
}

// Unwrap makes the error match ErrUnsupported and read as its protocol
// error.
func (e *MissingCapabilityError) Unwrap() []error { return []error{ErrUnsupported, e.rpc()} }

func (e *MissingCapabilityError) rpc() *jsonrpc.Error {
	// Written by hand: mcp.ClientCapabilities always encodes a "roots"
	// member, which would name a capability this request does not need.
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{string(e.Capability): struct{}{}}})
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: e.Error() +
		"; declare it in _meta \"io.modelcontextprotocol/clientCapabilities\"", Data: data}
}
