package vurb

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge"
)

// StdioOn is Stdio over the given streams, for the tests.
func StdioOn(in io.Reader, out io.Writer, opts ...StdioOption) mcp.Transport {
	return edge.NewStdio(in, out, opts...)
}
