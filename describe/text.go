package describe

import "strings"

// The marks a grouped description puts on an action whose hint its tool's
// annotations cannot carry: a tool is read-only or idempotent only if all
// its actions are, and destructive if one is, so which actions read, repeat
// safely or destroy is said per action.
const (
	ReadOnlyMark    = "read-only"
	IdempotentMark  = "idempotent"
	DestructiveMark = "destructive"
)

// Hints are the effects an action's annotations state.
type Hints struct{ ReadOnly, Idempotent, Destructive bool }

// HintsOf returns the hints of a's annotations: its explicit ones when set,
// else those its semantics imply (ForAction).
func HintsOf(a Action) Hints {
	ann := a.Annotations
	if ann == nil {
		ann = ForAction(a)
	}
	return Hints{ann.ReadOnlyHint, ann.IdempotentHint, ann.DestructiveHint == nil || *ann.DestructiveHint}
}

// Flat writes the description of one action listed as its own tool: its
// effect, then its description, as in "Read-only: List projects". The
// effect is "Read-only" for reads, "Destructive" for destructive actions
// and absent otherwise; the wire name already says where the action sits.
// An action with neither is described by its place, "projects → archive",
// since some clients require a description. A cache directive follows
// (CacheNote).
func Flat(tool string, a Action) string {
	h := HintsOf(a)
	text := a.Description
	if text == "" && !h.ReadOnly && !h.Destructive {
		text = tool
		if a.Key != "" {
			text += " → " + strings.ReplaceAll(a.Key, ".", " → ")
		}
	}
	mark := ""
	switch {
	case h.ReadOnly:
		mark = "Read-only"
	case h.Destructive:
		mark = "Destructive"
	}
	if mark != "" {
		text = strings.TrimSpace(mark + ": " + text)
		text = strings.TrimSuffix(text, ":")
	}
	return CacheNote(text, a.Cache)
}

// Grouped writes the description of a tool listed as one MCP tool: the
// tool's description, then one line per action that has something to say,
// "key: description (marks)", where the marks (ReadOnlyMark,
// IdempotentMark, DestructiveMark) are the hints only some of the tool's
// actions have. An action with neither description nor mark has no line:
// the discriminator's enum names every action, and each field's
// description says which actions take it.
func Grouped(t Tool) string {
	var b strings.Builder
	b.WriteString(t.Description)
	marks := Marks(t.Actions)
	for i, a := range t.Actions {
		desc := strings.TrimRight(a.Description, ".")
		if m := marks[i]; m != "" {
			desc = strings.TrimSpace(desc + " (" + m + ")")
		}
		if desc == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(a.Key + ": " + desc)
	}
	return CacheNote(b.String(), t.Cache)
}

// Marks returns, per action, the hints it has that not every action has,
// joined by ", " ("read-only", "idempotent, destructive", or ""). A hint
// every action has is the tool's own annotation, which says it for all.
func Marks(actions []Action) []string {
	hints := make([]Hints, len(actions))
	all := Hints{true, true, true}
	for i, a := range actions {
		h := HintsOf(a)
		hints[i] = h
		all = Hints{all.ReadOnly && h.ReadOnly, all.Idempotent && h.Idempotent, all.Destructive && h.Destructive}
	}
	out := make([]string, len(actions))
	for i, h := range hints {
		var m []string
		if h.ReadOnly && !all.ReadOnly {
			m = append(m, ReadOnlyMark)
		}
		if h.Idempotent && !all.Idempotent {
			m = append(m, IdempotentMark)
		}
		if h.Destructive && !all.Destructive {
			m = append(m, DestructiveMark)
		}
		out[i] = strings.Join(m, ", ")
	}
	return out
}

// CacheNote appends a state-sync cache directive to a description, as
// "[Cache-Control: no-store]", or returns it unchanged when cc is "".
func CacheNote(description, cc string) string {
	if cc == "" {
		return description
	}
	if description == "" {
		return "[Cache-Control: " + cc + "]"
	}
	return description + " [Cache-Control: " + cc + "]"
}
