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
	Action string `json:"action"`
	Desc   string `json:"desc"`
	Marks  string `json:"marks"`
}

// TOON writes the description of a tool exposed as one MCP tool as its
// description line, then a TOON table of its actions (action, desc, marks:
// the hints only some actions have, as in Grouped), one table per module
// for hierarchical tools. Tables use the pipe delimiter, so descriptions
// with commas need no quoting. Which fields each action takes is in the
// input schema's field descriptions, as with Grouped.
func TOON(t Tool) (string, error) {
	line := strings.TrimSpace(t.Description)
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
	marks := Marks(t.Actions)
	if len(t.Groups) == 0 {
		if err := write("actions", rows(t.Actions, marks, "")); err != nil {
			return "", err
		}
	}
	for _, g := range t.Groups {
		if r := rows(t.Actions, marks, g.Name); len(r) > 0 {
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
	if line == "" {
		return CacheNote(string(table), t.Cache), nil
	}
	return CacheNote(line+"\n"+string(table), t.Cache), nil
}

// rows are the table rows of the actions in group ("" for a flat tool),
// named without the group prefix.
func rows(actions []Action, marks []string, group string) []toonRow {
	var out []toonRow
	for i, a := range actions {
		name := a.Key
		if group != "" {
			g, n, ok := strings.Cut(a.Key, ".")
			if !ok || g != group {
				continue
			}
			name = n
		}
		out = append(out, toonRow{Action: name, Desc: strings.TrimRight(a.Description, "."), Marks: marks[i]})
	}
	return out
}
