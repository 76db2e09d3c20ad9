package presenter

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/presenter"
)

// Presentation is what a presented result tells the model besides its
// data, as Read reads it back from the result's text: for tests (vurbtest
// asserts on it) and for Go clients that want the suggestions as values.
type Presentation struct {
	// Rules are the presenters' rules, each once: every presenter's own,
	// then those computed from the values.
	Rules []string
	// LeftOut are the collections a presenter's Limit cut.
	LeftOut []LeftOut
	// Next are the suggested calls, as the model must make them.
	Next []NextCall
}

// LeftOut is a collection cut by a presenter's Limit, or all those at one
// place of the result.
type LeftOut struct {
	// Path is where in the result: "" for the result itself,
	// "customers[].invoices" for a collection in each element of another.
	Path string
	// Type is the Go type of its elements ("Invoice").
	Type string
	// Shown and Total count the elements kept and the elements there were.
	Shown, Total int
	// Lists is how many collections at Path were cut (1 for one).
	Lists int
	// Narrow are the action's input fields that narrow the query.
	Narrow []string
}

// NextCall is one suggested call, as the model must make it.
type NextCall struct {
	// Tool is the wire tool to call ("billing_pay", or "billing" in
	// grouped exposition, whose Arguments then hold the discriminator).
	Tool string
	// Arguments are the call's arguments; numbers are json.Number.
	Arguments map[string]any
	// Reason is the presenter's reason, "" when it gave none.
	Reason string
}

// Read reads the presentation block of res, the text block after the
// data that presented results carry; ok is false when res has
// none (nothing was presented, or the presenters had nothing to say).
func Read(res *mcp.CallToolResult) (p Presentation, ok bool) {
	if res == nil || len(res.Content) < 2 {
		return Presentation{}, false
	}
	for _, c := range res.Content[1:] {
		t, isText := c.(*mcp.TextContent)
		if !isText {
			continue
		}
		first, _, _ := strings.Cut(t.Text, "\n")
		if first == presenter.HeadRules || first == presenter.HeadCuts || first == presenter.HeadActions {
			return parsePresentation(t.Text), true
		}
	}
	return Presentation{}, false
}

func parsePresentation(text string) Presentation {
	var p Presentation
	section := ""
	for _, line := range strings.Split(text, "\n") {
		item, isItem := strings.CutPrefix(line, "- ")
		if !isItem {
			section = line
			continue
		}
		switch section {
		case presenter.HeadRules:
			p.Rules = append(p.Rules, item)
		case presenter.HeadCuts:
			if l, ok := parseLeftOut(item); ok {
				p.LeftOut = append(p.LeftOut, l)
			}
		case presenter.HeadActions:
			if n, ok := parseNextCall(item); ok {
				p.Next = append(p.Next, n)
			}
		}
	}
	return p
}

var leftOutLine = regexp.MustCompile(`^(.*): (\d+) of (\d+) (\S+) shown, \d+ left out(?: \((\d+) lists\))?(?:` +
	regexp.QuoteMeta(presenter.NarrowWith) + `(.*))?$`)

func parseLeftOut(item string) (LeftOut, bool) {
	m := leftOutLine.FindStringSubmatch(item)
	if m == nil {
		return LeftOut{}, false
	}
	l := LeftOut{Path: m[1], Type: m[4], Lists: 1}
	if l.Path == "the result" {
		l.Path = ""
	}
	l.Shown, _ = strconv.Atoi(m[2])
	l.Total, _ = strconv.Atoi(m[3])
	if m[5] != "" {
		l.Lists, _ = strconv.Atoi(m[5])
	}
	if m[6] != "" {
		l.Narrow = strings.Split(m[6], ", ")
	}
	return l, true
}

func parseNextCall(item string) (NextCall, bool) {
	tool, rest, ok := strings.Cut(item, " ")
	if !ok {
		return NextCall{}, false
	}
	d := json.NewDecoder(strings.NewReader(rest))
	d.UseNumber()
	n := NextCall{Tool: tool}
	if err := d.Decode(&n.Arguments); err != nil {
		return NextCall{}, false
	}
	tail := bytes.TrimSpace([]byte(rest[d.InputOffset():]))
	n.Reason = string(bytes.TrimPrefix(tail, []byte(": ")))
	return n, true
}
