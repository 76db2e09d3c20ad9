package vurb

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioOn is Stdio over the given streams, for the tests.
func StdioOn(in io.Reader, out io.Writer, opts ...StdioOption) mcp.Transport {
	return newStdio(in, out, opts...)
}
