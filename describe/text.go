package describe

import (
	"strings"
)

// DestructiveMark flags destructive actions in grouped descriptions, where a
// model otherwise sees one tool whose annotations cannot tell which of its
// actions destroy data.
const DestructiveMark = "⚠️ DESTRUCTIVE"

// Grouped writes the layered Markdown description of a tool exposed as one
// MCP tool. Layer 1 is the tool's description and a summary line that names
// every action ("Actions: list, create, delete") or every module with its
// actions ("Modules: users (list,create,ban) | billing (invoices,refund)").
// Layer 2, under "Workflow:", has one line for each action worth a note:
// one with a description, required fields, or destructive effects.
func Grouped(t Tool) string {
	var b strings.Builder
	if t.Description != "" {
		b.WriteString(t.Description)
		b.WriteByte('\n')
	}
	b.WriteString(summary(t))
	first := true
	for _, a := range t.Actions {
		line := workflowLine(a)
		if line == "" {
			continue
		}
		if first {
			b.WriteString("\n\nWorkflow:")
			first = false
		}
		b.WriteString("\n- ")
		b.WriteString(line)
	}
	return b.String()
}

// summary is layer 1's second line.
func summary(t Tool) string {
	if len(t.Groups) == 0 {
		keys := make([]string, len(t.Actions))
		for i, a := range t.Actions {
			keys[i] = a.Key
		}
		return "Actions: " + strings.Join(keys, ", ")
	}
	modules := make([]string, 0, len(t.Groups))
	for _, g := range t.Groups {
		var names []string
		for _, a := range t.Actions {
			if group, name, ok := strings.Cut(a.Key, "."); ok && group == g.Name {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			continue
		}
		modules = append(modules, g.Name+" ("+strings.Join(names, ",")+")")
	}
	return "Modules: " + strings.Join(modules, " | ")
}

// workflowLine is one layer-2 line, or "" when the action has nothing to
// add to its name in the summary.
func workflowLine(a Action) string {
	var parts []string
	if a.Description != "" {
		parts = append(parts, strings.TrimRight(a.Description, "."))
	}
	if len(a.Required) > 0 {
		parts = append(parts, "Requires: "+strings.Join(a.Required, ", "))
	}
	if len(parts) == 0 && !a.Destructive {
		return ""
	}
	line := a.Key + ": " + strings.Join(parts, ". ")
	if len(parts) == 0 {
		line = a.Key + ":"
	}
	if a.Destructive {
		line += " " + DestructiveMark
	}
	return line
}

// Flat writes the description of one action exposed as its own MCP tool:
// its effect in brackets, its description, and where it sits, as in
// "[READ-ONLY] List projects (projects → list)". The bracket is
// [READ-ONLY] for reads, [DESTRUCTIVE] for destructive actions, and absent
// otherwise.
func Flat(tool string, a Action) string {
	var b strings.Builder
	switch {
	case a.ReadOnly:
		b.WriteString("[READ-ONLY] ")
	case a.Destructive:
		b.WriteString("[DESTRUCTIVE] ")
	}
	path := tool + " → " + strings.ReplaceAll(a.Key, ".", " → ")
	if a.Key == "" { // a tool that is one action: its name is the whole path
		path = tool
	}
	if a.Description == "" {
		b.WriteString(path)
		return b.String()
	}
	b.WriteString(a.Description)
	b.WriteString(" (")
	b.WriteString(path)
	b.WriteString(")")
	return b.String()
}
