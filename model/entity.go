package model

import (
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Info is what every entity carries, as the builder receives it. The
// builder copies it: changing an Info after the call changes nothing built.
type Info struct {
	// Name identifies the entity among its siblings (a tool's wire name, a
	// group's segment, a prompt's name).
	Name string
	// Title is the human-readable name a client may display.
	Title string
	// Description is what a model or a person reads about the entity.
	Description string
	// Meta is the entity's _meta: JSON values only.
	Meta map[string]any
	// Icons are the entity's icons, if any.
	Icons []mcp.Icon
}

// entity is the frozen form of Info, embedded by every node.
type entity struct {
	name, title, description string
	meta                     map[string]any
	icons                    []mcp.Icon
}

func newEntity(i Info) entity {
	return entity{name: i.Name, title: i.Title, description: i.Description, meta: copyMeta(i.Meta), icons: copyIcons(i.Icons)}
}

// Name returns the entity's name.
func (e *entity) Name() string { return e.name }

// Title returns the entity's human-readable title, or "".
func (e *entity) Title() string { return e.title }

// Description returns the entity's description, or "".
func (e *entity) Description() string { return e.description }

// Meta returns a copy of the entity's _meta, or nil.
func (e *entity) Meta() map[string]any { return copyMeta(e.meta) }

// Icons returns a copy of the entity's icons, or nil.
func (e *entity) Icons() []mcp.Icon { return copyIcons(e.icons) }

func copyIcons(icons []mcp.Icon) []mcp.Icon {
	if icons == nil {
		return nil
	}
	out := make([]mcp.Icon, len(icons))
	for i, ic := range icons {
		ic.Sizes = slices.Clone(ic.Sizes)
		out[i] = ic
	}
	return out
}

// copyMeta deep-copies a _meta map. JSON values (maps, slices, strings,
// numbers, booleans, nil) are copied as they are; any other value (a
// struct a server put there) is copied through its JSON form, which is
// what a client would receive.
func copyMeta(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = copyJSON(v)
	}
	return out
}

func copyJSON(v any) any {
	switch v := v.(type) {
	case nil, string, bool, float64, json.Number, int, int64:
		return v
	case map[string]any:
		return copyMeta(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = copyJSON(x)
		}
		return out
	case json.RawMessage:
		return slices.Clone(v)
	default:
		data, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		var plain any
		if json.Unmarshal(data, &plain) != nil {
			return nil
		}
		return plain
	}
}

// schemaJSON is the JSON form of a wire schema (a json.RawMessage, a
// map[string]any from a client, a *jsonschema.Schema from a server), or
// nil when there is none.
func schemaJSON(s any) json.RawMessage {
	switch s := s.(type) {
	case nil:
		return nil
	case json.RawMessage:
		if s == nil {
			return nil
		}
		return slices.Clone(s)
	case []byte:
		return slices.Clone(s)
	}
	data, err := json.Marshal(s)
	if err != nil || string(data) == "null" {
		return nil
	}
	return data
}
