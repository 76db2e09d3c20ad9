package edge

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/edge/fault/faulttest"
)

// TestServerAnswersAPanicAsEveryPath holds the go-sdk's server, where the
// edge contains a panic with fault.Contain, to the one scheme every path
// keeps (the fast lane in lane/fault_test.go, a task's goroutine in
// tasks/fault_test.go): the runtime's message with a reference from its
// sequence, and one log entry that carries the same reference.
func TestServerAnswersAPanicAsEveryPath(t *testing.T) {
	rt, log := faulttest.Runtime()
	boom := func(context.Context, string, mcp.Request) (mcp.Result, error) { panic("boom") }
	_, err := fault.Contain(rt)(boom)(context.Background(), "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "boom"}})
	faulttest.Check(t, err, log, "")
}
