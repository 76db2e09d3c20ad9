package vurb

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/stdio"
)

// StdioOn is Stdio over the given streams, for the tests.
func StdioOn(in io.Reader, out io.Writer, opts ...StdioOption) mcp.Transport {
	each := make([]stdio.Option, len(opts))
	for i, o := range opts {
		each[i] = o.edge
	}
	return stdio.New(in, out, each...)
}
