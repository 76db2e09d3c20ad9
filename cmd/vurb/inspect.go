package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/vurb-go/vurb/manifest"
	"github.com/vurb-go/vurb/servercard"
)

// inspect lists what a server offers, readable in a terminal: tools with
// their annotations, fields and token counts, prompts, resources, and for
// a vurb server that publishes its manifest, both expositions side by
// side.
func inspect(ctx context.Context, e *env, args []string) error {
	if len(args) != 1 {
		return usagef("inspect takes one server, got %d arguments", len(args))
	}
	snap, err := load(ctx, e, args[0])
	if err != nil {
		return err
	}
	e.progress.step("counting tokens (%s)", tokenizerName)
	rep, err := newInspection(ctx, snap)
	if err != nil {
		return fmt.Errorf("counting tokens: %w", err)
	}
	if e.opts.json {
		return writeJSON(e.out, rep)
	}
	rep.write(e.out)
	return nil
}

// inspection is inspect's answer; its JSON form is the --json output.
type inspection struct {
	Server     manifest.Server `json:"server"`
	Protocol   string          `json:"protocolVersion,omitempty"`
	Exposition string          `json:"exposition,omitempty"`
	Tokenizer  string          `json:"tokenizer"`
	Tokens     int             `json:"tokens"`
	// ModelTokens counts only what a model reads: names, descriptions and
	// input schemas.
	ModelTokens int                 `json:"modelTokens"`
	Tools       []inspectedTool     `json:"tools"`
	Expositions []exposition        `json:"expositions,omitempty"`
	Prompts     []manifest.Prompt   `json:"prompts,omitempty"`
	Resources   []manifest.Resource `json:"resources,omitempty"`
	Templates   []manifest.Resource `json:"resourceTemplates,omitempty"`
	Skills      []inspectedSkill    `json:"skills,omitempty"` // skills.go
	// ServerCard is the card served beside the endpoint (SEP-2127).
	ServerCard *servercard.Card `json:"serverCard,omitempty"`
}

type inspectedTool struct {
	manifest.Tool
	Tokens int `json:"tokens"`
}

// exposition is one exposition's tool names and token counts.
type exposition struct {
	Name        string      `json:"name"`
	Served      bool        `json:"served"`
	Tools       []toolCount `json:"tools"`
	Tokens      int         `json:"tokens"`
	ModelTokens int         `json:"modelTokens"`
}

type toolCount struct {
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
}

// newInspection counts the tokens of snap's tools in every exposition;
// it stops when ctx is done.
func newInspection(ctx context.Context, snap snapshot) (inspection, error) {
	m := snap.manifest
	rep := inspection{Server: m.Server, Protocol: snap.protocol, Exposition: m.Exposition, Tokenizer: tokenizerName,
		Prompts: m.Prompts, Resources: m.Resources, Templates: m.ResourceTemplates, Skills: skillsOf(snap), ServerCard: m.ServerCard}
	each, total, err := toolTokens(ctx, m.Tools)
	if err != nil {
		return rep, err
	}
	rep.Tokens = total
	if rep.ModelTokens, err = modelViewTokens(ctx, m.Tools); err != nil {
		return rep, err
	}
	for i, t := range m.Tools {
		rep.Tools = append(rep.Tools, inspectedTool{t, each[i]})
	}
	if len(m.Alternates) == 0 {
		return rep, nil
	}
	add := func(name string, served bool, tools []manifest.Tool) error {
		each, total, err := toolTokens(ctx, tools)
		if err != nil {
			return err
		}
		x := exposition{Name: name, Served: served, Tokens: total}
		if x.ModelTokens, err = modelViewTokens(ctx, tools); err != nil {
			return err
		}
		for i, t := range tools {
			x.Tools = append(x.Tools, toolCount{t.Name, each[i]})
		}
		rep.Expositions = append(rep.Expositions, x)
		return nil
	}
	if err := add(m.Exposition, true, m.Tools); err != nil {
		return rep, err
	}
	for _, alt := range m.Alternates {
		if err := add(alt.Name, false, alt.Tools); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// write prints the report for a person. Every name, title, description,
// value and pattern in it is the server's, and is written through
// manifest.Visible (see terminal.go).
func (rep inspection) write(w io.Writer) {
	s := rep.Server
	head := visible(strings.TrimSpace(s.Name + " " + s.Version))
	if rep.Protocol != "" {
		head += " · MCP " + visible(rep.Protocol)
	}
	fmt.Fprintf(w, "%s · %s · %s · %s\n", head, plural(len(rep.Tools), "tool"), plural(len(rep.Prompts), "prompt"),
		plural(len(rep.Resources)+len(rep.Templates), "resource"))
	if s.Instructions != "" {
		fmt.Fprintf(w, "instructions: %s\n", oneLine(s.Instructions, 120))
	}
	fmt.Fprintf(w, "tools/list: %d tokens (%s), %d of them read by the model", rep.Tokens, rep.Tokenizer, rep.ModelTokens)
	if rep.Exposition != "" {
		fmt.Fprintf(w, ", %s exposition", visible(rep.Exposition))
	}
	fmt.Fprintln(w)
	if c := rep.ServerCard; c != nil {
		fmt.Fprintf(w, "server card: %s %s · %s\n", visible(c.Name), visible(c.Version), oneLine(c.Description, 100))
		for _, r := range c.Remotes {
			fmt.Fprintf(w, "  %s %s · MCP %s\n", visible(r.Type), visible(r.URL), visible(strings.Join(r.SupportedProtocolVersions, ", ")))
		}
	}
	if len(rep.Expositions) > 0 {
		fmt.Fprintln(w, "\nExpositions (the same actions, listed both ways)")
		rep.writeExpositions(w)
	}
	fmt.Fprintln(w, "\nTools")
	for _, t := range rep.Tools {
		writeTool(w, t)
	}
	if len(rep.Prompts) > 0 {
		fmt.Fprintln(w, "\nPrompts")
		for _, p := range rep.Prompts {
			var args []string
			for _, a := range p.Arguments {
				if a.Required {
					args = append(args, visible(a.Name))
				} else {
					args = append(args, visible(a.Name)+"?")
				}
			}
			fmt.Fprintf(w, "  %s(%s)  %s\n", visible(p.Name), strings.Join(args, ", "), oneLine(p.Description, 100))
		}
	}
	if len(rep.Resources)+len(rep.Templates) > 0 {
		fmt.Fprintln(w, "\nResources")
		tw := newTable(w)
		for _, r := range append(append([]manifest.Resource(nil), rep.Resources...), rep.Templates...) {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", visible(r.URI+r.URITemplate), visible(r.Name), visible(r.MIMEType), oneLine(r.Description, 80))
		}
		tw.flush()
	}
	writeSkills(w, rep.Skills)
}

// writeExpositions prints the expositions in columns, side by side.
func (rep inspection) writeExpositions(w io.Writer) {
	tw := newTable(w)
	rows := 0
	for _, x := range rep.Expositions {
		rows = max(rows, len(x.Tools))
	}
	var b strings.Builder
	for _, x := range rep.Expositions {
		name := visible(x.Name)
		if x.Served {
			name += " (served)"
		}
		fmt.Fprintf(&b, "%s\ttokens\t", name)
	}
	fmt.Fprintln(tw, "  "+strings.TrimSuffix(b.String(), "\t")+"\t")
	for i := range rows {
		b.Reset()
		for _, x := range rep.Expositions {
			if i < len(x.Tools) {
				fmt.Fprintf(&b, "%s\t%d\t", visible(x.Tools[i].Name), x.Tools[i].Tokens)
			} else {
				b.WriteString("\t\t")
			}
		}
		fmt.Fprintln(tw, "  "+b.String())
	}
	b.Reset()
	for _, x := range rep.Expositions {
		fmt.Fprintf(&b, "%s\t%d\t", plural(len(x.Tools), "tool"), x.Tokens)
	}
	fmt.Fprintln(tw, "  "+b.String())
	b.Reset()
	for _, x := range rep.Expositions {
		fmt.Fprintf(&b, "model view\t%d\t", x.ModelTokens)
	}
	fmt.Fprintln(tw, "  "+b.String())
	tw.flush()
}

func writeTool(w io.Writer, t inspectedTool) {
	fmt.Fprintf(w, "  %s  [%s]  %d tokens\n", visible(t.Name), effect(t.Annotations), t.Tokens)
	if t.Title != "" {
		fmt.Fprintf(w, "    title: %s\n", visible(t.Title))
	}
	if t.Description != "" {
		fmt.Fprintf(w, "    %s\n", oneLine(t.Description, 110))
	}
	if len(t.Actions) > 1 {
		fmt.Fprintf(w, "    actions: %s\n", visible(strings.Join(t.Actions, ", ")))
	}
	if len(t.Groups) > 0 {
		fmt.Fprintf(w, "    groups: %s\n", visible(strings.Join(t.Groups, ", ")))
	}
	if t.Auth != nil {
		fmt.Fprintf(w, "    auth: required, scopes %s\n", visible(strings.Join(t.Auth.Scopes, " ")))
	}
	writeFields(w, "in: ", t.InputSchema)
	writeFields(w, "out:", t.OutputSchema)
}

// effect is what the annotations say calling the tool does.
func effect(a *manifest.Annotations) string {
	if a == nil {
		return "no annotations: destructive by default"
	}
	var parts []string
	switch {
	case a.ReadOnlyHint:
		parts = append(parts, "read-only")
	case a.Destructive():
		parts = append(parts, "destructive")
	default:
		parts = append(parts, "writes")
	}
	if a.IdempotentHint {
		parts = append(parts, "idempotent")
	}
	if a.OpenWorldHint != nil && *a.OpenWorldHint {
		parts = append(parts, "open-world")
	}
	return strings.Join(parts, ", ")
}

// writeFields prints the top-level properties of an object schema, one a
// line: name (? when optional), type, constraints, description.
func writeFields(w io.Writer, label string, schema json.RawMessage) {
	if len(schema) == 0 {
		return
	}
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return
	}
	// A set, not a lookup in the list: a server's schema may name as
	// many fields as it likes.
	required := make(map[string]bool, len(s.Required))
	for _, name := range s.Required {
		required[name] = true
	}
	tw := newTable(w)
	first := true
	for _, name := range sortedKeys(s.Properties) {
		p := s.Properties[name]
		req := ""
		if !required[name] {
			req = "?"
		}
		lead := "    " + strings.Repeat(" ", len(label))
		if first {
			lead, first = "    "+label, false
		}
		fmt.Fprintf(tw, "%s %s%s\t%s\t%s\t%s\n", lead, visible(name), req, visible(typeOf(p)), visible(constraints(p)), oneLine(str(p["description"]), 70))
	}
	tw.flush()
}

func typeOf(p map[string]any) string {
	if e, ok := p["enum"].([]any); ok {
		var vs []string
		for _, v := range e {
			data, _ := json.Marshal(v)
			vs = append(vs, string(data))
		}
		return strings.Join(vs, "|")
	}
	switch t := p["type"].(type) {
	case string:
		if t == "array" {
			if items, ok := p["items"].(map[string]any); ok {
				return typeOf(items) + "[]"
			}
		}
		return t
	case []any:
		var ts []string
		for _, x := range t {
			ts = append(ts, str(x))
		}
		return strings.Join(ts, "|")
	}
	return "any"
}

func constraints(p map[string]any) string {
	var out []string
	rng := func(lo, hi, unit string) {
		l, h := num(p[lo]), num(p[hi])
		switch {
		case l != "" && h != "":
			out = append(out, l+".."+h+unit)
		case l != "":
			out = append(out, "≥"+l+unit)
		case h != "":
			out = append(out, "≤"+h+unit)
		}
	}
	rng("minimum", "maximum", "")
	rng("minLength", "maxLength", " chars")
	rng("minItems", "maxItems", " items")
	if f := str(p["format"]); f != "" {
		out = append(out, f)
	}
	if pat := str(p["pattern"]); pat != "" {
		out = append(out, "/"+pat+"/")
	}
	return strings.Join(out, ", ")
}

func num(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprint(f)
	}
	return ""
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// visible is a server's text as one line of terminal output shows it:
// manifest.Visible, the one function every such text goes through.
func visible(s string) string { return manifest.Visible(s) }

// oneLine is a server's text on one line of at most n characters (before
// escapes), its runs of white space made one space, made visible.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return visible(s)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
