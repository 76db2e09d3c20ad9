package describe

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/vurb-go/vurb/toon"
)

// toonRow is one action in a TOON description table. The field order is
// the column order a model reads.
type toonRow struct {
	Action      string `json:"action"`
	Desc        string `json:"desc"`
	Required    string `json:"required"`
	Destructive bool   `json:"destructive"`
}

// TOON writes a compact description of a tool exposed as one MCP tool: one
// human summary line, then a TOON table of its actions (action, desc,
// required, destructive), one table per module for hierarchical tools. It
// says what Grouped says in fewer tokens, which matters when a server has
// many actions. Tables use the pipe delimiter, so descriptions with commas
// need no quoting.
func TOON(t Tool) (string, error) {
	line := summary(t)
	if t.Description != "" {
		line = strings.TrimRight(t.Description, " ") + " " + line
	}
	// Build the JSON text with keys in module order, then convert: FromJSON
	// keeps the order of the text.
	var doc bytes.Buffer
	doc.WriteByte('{')
	write := func(key string, rows []toonRow) error {
		if doc.Len() > 1 {
			doc.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		v, err := json.Marshal(rows)
		if err != nil {
			return err
		}
		doc.Write(k)
		doc.WriteByte(':')
		doc.Write(v)
		return nil
	}
	if len(t.Groups) == 0 {
		if err := write("actions", rows(t.Actions, "")); err != nil {
			return "", err
		}
	}
	for _, g := range t.Groups {
		if r := rows(t.Actions, g.Name); len(r) > 0 {
			if err := write(g.Name, r); err != nil {
				return "", err
			}
		}
	}
	doc.WriteByte('}')
	table, err := toon.FromJSON(doc.Bytes(), toon.WithDelimiter(toon.Pipe))
	if err != nil {
		return "", err
	}
	return line + "\n" + string(table), nil
}

// rows are the table rows of the actions in group ("" for a flat tool),
// named without the group prefix.
func rows(actions []Action, group string) []toonRow {
	var out []toonRow
	for _, a := range actions {
		name := a.Key
		if group != "" {
			g, n, ok := strings.Cut(a.Key, ".")
			if !ok || g != group {
				continue
			}
			name = n
		}
		out = append(out, toonRow{
			Action:      name,
			Desc:        a.Description,
			Required:    strings.Join(a.Required, ","),
			Destructive: a.Destructive,
		})
	}
	return out
}
