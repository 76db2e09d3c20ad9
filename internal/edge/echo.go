package edge

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// MaxEcho is how much of a string a client sent (a tool, prompt or
// argument name, a URI) an error text quotes back: a 900 KB name is not
// sent back to its sender, nor written whole to a log.
const MaxEcho = 64

// shortEchoes rewrites the go-sdk's errors that quote what the client
// sent (an unknown tool or prompt, a resource not found), which quote it
// whole, so that they quote at most MaxEcho bytes of it. An unknown tool
// reads as vurb's own (engine.UnknownTool), so a filtered-out tool reads
// exactly like one that never existed.
//
// Under tool search the name of a call_tool is the name it carries: a
// carried tool the app does not have is answered by call_tool's handler.
func shortEchoes(p *engine.Plan) mcp.Middleware {
	rt := p.Runtime()
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			var rpcErr *jsonrpc.Error
			if err == nil || !errors.As(err, &rpcErr) {
				return res, err
			}
			if params, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && strings.HasPrefix(rpcErr.Message, "unknown tool ") {
				name := params.Name
				if inner, _, ok := p.Resolve(name, params.Arguments); ok {
					name = inner
				}
				return res, engine.UnknownTool(rt, name)
			}
			if short := shortened(rpcErr, echoed(req)); short != nil {
				return res, short
			}
			return res, err
		}
	}
}

// echoed are the strings of req a client chose that an error may quote.
func echoed(req mcp.Request) []string {
	switch p := req.GetParams().(type) {
	case *mcp.GetPromptParams:
		return []string{p.Name}
	case *mcp.ReadResourceParams:
		return []string{p.URI}
	case *mcp.SubscribeParams:
		return []string{p.URI}
	case *mcp.UnsubscribeParams:
		return []string{p.URI}
	case *mcp.CompleteParams:
		if p.Ref != nil {
			return []string{p.Ref.Name, p.Ref.URI, p.Argument.Name}
		}
	}
	return nil
}

// shortened is e with every long string of sent cut to MaxEcho bytes in
// its message and its data, or nil when e quotes none.
func shortened(e *jsonrpc.Error, sent []string) *jsonrpc.Error {
	out := *e
	changed := false
	for _, s := range sent {
		if len(s) <= MaxEcho {
			continue
		}
		short := engine.Truncate(s, MaxEcho)
		for _, quoted := range [][2]string{{strconv.Quote(s), strconv.Quote(short)}, {s, short}} {
			if strings.Contains(out.Message, quoted[0]) {
				out.Message, changed = strings.ReplaceAll(out.Message, quoted[0], quoted[1]), true
			}
		}
		if len(out.Data) > 0 && strings.Contains(string(out.Data), s[:MaxEcho]) {
			out.Data, changed = nil, true
			if out.Code == mcp.CodeResourceNotFound { // the go-sdk's data: {"uri": ...}
				out.Data, _ = json.Marshal(map[string]string{"uri": short})
			}
		}
	}
	if !changed {
		return nil
	}
	return &out
}
