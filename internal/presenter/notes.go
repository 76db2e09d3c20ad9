package presenter

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vurb-go/vurb/internal/engine"
)

// Notes are what a result's presenters said while it was written: each
// presenter met (for its static rules), the rules and suggestions computed
// from each value, and the collections cut. Each is kept once, in the
// order first met, so that a rule a thousand rows give is read once.
type Notes struct {
	presenters []*Def
	rules      []string
	suggested  []Suggestion
	cuts       []cutNote
}

// cutNote is a collection (or all those at one path) cut by a limit.
type cutNote struct {
	path         string // where in the result: "" for the result itself, "customers[].invoices"
	typ          string
	shown, total int
	lists        int
}

func (n *Notes) met(p *Def) {
	if !slices.Contains(n.presenters, p) {
		n.presenters = append(n.presenters, p)
	}
}

// AddRules adds rules computed from one value, each kept once, on one
// line.
func (n *Notes) AddRules(rules []string) {
	for _, r := range rules {
		if r = oneLine(r); r != "" && !slices.Contains(n.rules, r) {
			n.rules = append(n.rules, r)
		}
	}
}

// AddSuggestion adds a suggestion computed from one value.
func (n *Notes) AddSuggestion(s Suggestion) { n.suggested = append(n.suggested, s) }

func (n *Notes) cut(path string, t reflect.Type, shown, total int) {
	for i := range n.cuts {
		if c := &n.cuts[i]; c.path == path {
			c.shown, c.total, c.lists = c.shown+shown, c.total+total, c.lists+1
			return
		}
	}
	name := t.Name()
	if name == "" {
		name = "items"
	}
	n.cuts = append(n.cuts, cutNote{path: path, typ: name, shown: shown, total: total, lists: 1})
}

func (n *Notes) empty() bool {
	return len(n.presenters) == 0 && len(n.rules) == 0 && len(n.suggested) == 0 && len(n.cuts) == 0
}

// The headings of the presentation block, which presenter.Read reads
// back: a model reads them as plain sections after the data.
const (
	HeadRules   = "Rules:"
	HeadCuts    = "Left out:"
	HeadActions = "Next actions:"
	NarrowWith  = "; narrow the query with " // after a cut's line, before the input fields that narrow the query
)

// CallForm is how the model calls an action under the app's exposition:
// a wire tool, and in grouped exposition the discriminator's value.
type CallForm struct {
	Wire          string
	Discriminator string // "" in flat exposition, and for a tool that is one action
	Action        string // the action's key in its tool
}

// text writes the presentation block: the rules (every presenter's own,
// then those computed), the collections cut, and the suggestions the
// caller of c may follow, each named as it must be called. It is "" when
// there is nothing to say.
func (n *Notes) text(pa *Action, c *engine.Call) string {
	if n.empty() {
		return ""
	}
	var rules []string
	for _, p := range n.presenters {
		for _, r := range p.rules {
			if r = oneLine(r); r != "" && !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
	}
	for _, r := range n.rules {
		if !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	var b strings.Builder
	section(&b, HeadRules, rules)
	cuts := make([]string, len(n.cuts))
	for i, cn := range n.cuts {
		cuts[i] = cn.line(pa.narrow)
	}
	section(&b, HeadCuts, cuts)
	section(&b, HeadActions, pa.calls(n.suggested, c))
	return strings.TrimSuffix(b.String(), "\n")
}

func section(b *strings.Builder, head string, lines []string) {
	if len(lines) == 0 {
		return
	}
	b.WriteString(head)
	b.WriteByte('\n')
	for _, l := range lines {
		b.WriteString("- ")
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

// line says what a cut left out and how to see the rest:
// "the result: 20 of 50 Invoice shown, 30 left out; narrow the query with status, customer_id".
func (cn cutNote) line(narrow []string) string {
	where := cn.path
	if where == "" {
		where = "the result"
	}
	s := fmt.Sprintf("%s: %d of %d %s shown, %d left out", where, cn.shown, cn.total, cn.typ, cn.total-cn.shown)
	if cn.lists > 1 {
		s += fmt.Sprintf(" (%d lists)", cn.lists)
	}
	if len(narrow) > 0 {
		s += NarrowWith + strings.Join(narrow, ", ")
	}
	return s
}

// calls are the suggestions the caller of c is shown, each once, written
// as the call to make: `billing_pay {"invoice_id":"INV-3"}: the invoice is
// open`, or `billing {"action":"pay","invoice_id":"INV-3"}: ...` in
// grouped exposition.
func (pa *Action) calls(ss []Suggestion, c *engine.Call) []string {
	var out, seen []string
	o := c.Origin()
	shown := map[string]bool{} // by action: whether it is shown to the caller, asked once
	var sees func(wire, key string) bool
	if o.Sight != nil {
		sees = o.Sight(o)
	}
	for _, s := range ss {
		form, ok := pa.forms[s.Action]
		if !ok {
			c.Logger().Warn("vurb: a presenter suggested an action the app does not have; it is not shown", "suggested", s.Action)
			continue
		}
		see, asked := shown[s.Action]
		if !asked {
			see = sees == nil || sees(form.Wire, s.Action)
			shown[s.Action] = see
		}
		if !see {
			continue
		}
		args, err := form.arguments(s.Args)
		if err != nil {
			c.Logger().Warn("vurb: a presenter's suggestion has arguments that cannot be encoded; it is not shown",
				"suggested", s.Action, "err", err.Error())
			continue
		}
		call := form.Wire + " " + args
		if slices.Contains(seen, call) {
			continue
		}
		seen = append(seen, call)
		if r := oneLine(s.Reason); r != "" {
			call += ": " + r
		}
		out = append(out, call)
	}
	return out
}

// arguments is the JSON object of args as the call needs them: the
// discriminator first in grouped exposition, then args by name.
func (f CallForm) arguments(args map[string]any) (string, error) {
	if f.Discriminator != "" && args[f.Discriminator] != nil {
		args = maps.Clone(args)
		delete(args, f.Discriminator)
	}
	if len(args) == 0 && f.Discriminator == "" {
		return "{}", nil
	}
	if args == nil {
		args = map[string]any{}
	}
	data, err := json.Marshal(args)
	if err != nil {
		return "", err
	}
	if f.Discriminator == "" {
		return string(data), nil
	}
	head := strconv.Quote(f.Discriminator) + ":" + strconv.Quote(f.Action)
	if len(data) == 2 { // {}
		return "{" + head + "}", nil
	}
	return "{" + head + "," + string(data[1:]), nil
}

// oneLine keeps a rule or a reason on its line: the block is read line by
// line, by models and by presenter.Read. Most already are, and are
// returned as they are.
func oneLine(s string) string {
	clean := s == "" || s[0] != ' ' && s[len(s)-1] != ' '
	for i := 0; clean && i < len(s); i++ {
		c := s[i]
		clean = c != '\n' && c != '\r' && c != '\t' && c != '\v' && c != '\f' && !(c == ' ' && i > 0 && s[i-1] == ' ') && c < utf8.RuneSelf
	}
	if clean {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
