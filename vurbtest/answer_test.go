package vurbtest_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/vurbtest"
)

// The same scripted answers serve both generations: a handshake-era
// session is asked directly, a 2026-07-28 client answers input-required
// results and retries.
func TestScriptedAnswers(t *testing.T) {
	noLeaks(t)
	for _, rev := range revisions {
		for _, tr := range transports {
			if tr.name == "http-stateless" && rev < vurbtest.Sessionless {
				continue // a stateless handshake-era server cannot ask its client
			}
			t.Run(rev+"/"+tr.name, func(t *testing.T) {
				is := is.New(t)
				var mu sync.Mutex
				var asked []string
				c := vurbtest.New(t, newApp(), append(tr.opts, vurbtest.Protocol(rev),
					vurbtest.OnElicit(func(p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
						mu.Lock()
						defer mu.Unlock()
						asked = append(asked, p.Message)
						return vurbtest.Accept(map[string]any{"sure": true})(p)
					}),
					vurbtest.OnSample(vurbtest.Reply("short")),
					vurbtest.Roots(&mcp.Root{URI: "file:///work", Name: "work"}),
				)...)
				is.Equal(c.CallText("ai_confirm", nil), "accept true")
				is.Equal(asked, []string{"Delete everything?"})
				is.Equal(c.CallText("ai_summarize", nil), "model said: short")
				is.Equal(c.CallText("fs_roots", nil), "file:///work")
				c.AddRoots(&mcp.Root{URI: "file:///tmp"})
				is.Equal(c.CallText("fs_roots", nil), "file:///tmp,file:///work")
			})
		}
	}
}

func TestDecline(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	c := vurbtest.New(t, newApp(), vurbtest.OnElicit(vurbtest.Decline()))
	is.Equal(c.CallText("ai_confirm", nil), "decline <nil>")
}

// A client without a script declares no elicitation or sampling
// capability: vurb answers with the protocol error the spec asks for.
func TestNoAnswerWithoutAScript(t *testing.T) {
	noLeaks(t)
	for _, rev := range []string{vurbtest.DefaultProtocol, vurbtest.Sessionless} {
		t.Run(rev, func(t *testing.T) {
			is := is.New(t)
			c := vurbtest.New(t, newApp(), vurbtest.Protocol(rev))
			for _, tool := range []string{"ai_confirm", "ai_summarize"} {
				_, err := c.CallResult(tool, nil)
				var rpc *jsonrpc.Error
				is.True(errors.As(err, &rpc))
				is.Equal(rpc.Code, int64(mcp.CodeMissingRequiredClientCapabilities))
			}
		})
	}
}
