package vurbtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/presenter"
)

// Presented is a successful result with what the app's presenters told
// the model besides the data (see package presenter): its rules, the
// collections a limit cut, the suggested calls. Its Want methods fail the
// test, quoting what the model read, and return it so they chain:
//
//	c.CallPresented("billing_list", nil).
//		WantRules("amount_cents is in cents: divide by 100 before showing it").
//		WantNext("billing_pay", map[string]any{"invoice_id": "INV-7"})
type Presented struct {
	presenter.Presentation
	// Data is the text of the result's first block: the presented data.
	Data string
	// Block is the text the model read after the data: the presentation
	// block, "" when the presenters said nothing.
	Block string

	t    testing.TB
	call string
}

// CallPresented calls the tool called name with args, as CallText does,
// failing the test unless the call succeeds, and reads the presentation
// block of its result (presenter.Read). A result without one has
// an empty Presentation.
func (c *Client) CallPresented(name string, args any, opts ...CallOption) *Presented {
	c.t.Helper()
	res := c.succeed(name, args, opts)
	p, _ := presenter.Read(res)
	out := &Presented{Presentation: p, t: c.t, call: c.describe(name, args)}
	if len(res.Content) > 0 {
		out.Data = Text(&mcp.CallToolResult{Content: res.Content[:1]})
		out.Block = Text(&mcp.CallToolResult{Content: res.Content[1:]})
	}
	return out
}

// WantRules fails the test unless the model read every one of rules.
func (p *Presented) WantRules(rules ...string) *Presented {
	p.t.Helper()
	for _, r := range rules {
		if !slices.Contains(p.Rules, r) {
			p.t.Fatalf("vurbtest: %s: no rule %q; the model read:\n%s", p.call, r, p.Block)
		}
	}
	return p
}

// WantNext fails the test unless the model was told to call tool, with
// arguments holding args (and maybe more; nil for any).
func (p *Presented) WantNext(tool string, args map[string]any) *Presented {
	p.t.Helper()
	for _, n := range p.Next {
		if n.Tool == tool && holds(n.Arguments, args) {
			return p
		}
	}
	p.t.Fatalf("vurbtest: %s: no suggestion to call %s with %s; the model read:\n%s", p.call, tool, jsonText(args), p.Block)
	return p
}

// WantNoNext fails the test when the model was told to call tool.
func (p *Presented) WantNoNext(tool string) *Presented {
	p.t.Helper()
	for _, n := range p.Next {
		if n.Tool == tool {
			p.t.Fatalf("vurbtest: %s: suggests calling %s; the model read:\n%s", p.call, tool, p.Block)
		}
	}
	return p
}

// WantLeftOut fails the test unless a limit cut the collections at path
// ("" for the result itself) to shown of total elements.
func (p *Presented) WantLeftOut(path string, shown, total int) *Presented {
	p.t.Helper()
	for _, l := range p.LeftOut {
		if l.Path == path && l.Shown == shown && l.Total == total {
			return p
		}
	}
	p.t.Fatalf("vurbtest: %s: %q is not cut to %d of %d; the model read:\n%s", p.call, path, shown, total, p.Block)
	return p
}

// holds reports whether got has every argument of want, with the same
// JSON value.
func holds(got, want map[string]any) bool {
	for k, v := range want {
		g, ok := got[k]
		if !ok || jsonText(g) != jsonText(v) {
			return false
		}
	}
	return true
}

func jsonText(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
