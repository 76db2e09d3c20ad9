package vurb

import (
	"fmt"
	"strings"
)

// Exposition is how authored tools reach the wire. Authoring never depends on
// it: the same handlers serve either exposition from the same route table.
type Exposition int

const (
	// Flat exposes one MCP tool per action, named tool_action (or
	// tool_group_action), each with only its own fields. It is the default:
	// small schemas are easier for a model to fill in correctly.
	Flat Exposition = iota
	// Grouped exposes one MCP tool per tool, with a discriminator field
	// (default "action") choosing the action and a merged schema whose field
	// descriptions say which actions need them. It keeps tools/list short
	// when a server has many actions.
	Grouped
)

// String returns "flat" or "grouped".
func (e Exposition) String() string {
	switch e {
	case Flat:
		return "flat"
	case Grouped:
		return "grouped"
	default:
		return fmt.Sprintf("Exposition(%d)", int(e))
	}
}

// flatName is the wire name of one action in flat exposition: the tool name
// and the action key joined by sep, with the group dot replaced by sep too.
func flatName(tool, actionKey, sep string) string {
	return tool + sep + strings.ReplaceAll(actionKey, ".", sep)
}

// maxToolNameLen is the MCP limit on a tool name's length.
const maxToolNameLen = 128

// checkWireName reports why name is not a valid MCP tool name, or "" when it
// is: 1 to 128 characters of A-Z, a-z, 0-9, underscore, hyphen and dot.
func checkWireName(name string) string {
	if name == "" {
		return "it is empty"
	}
	if len(name) > maxToolNameLen {
		return fmt.Sprintf("it is %d characters long; the limit is %d", len(name), maxToolNameLen)
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) && name[i] != '.' {
			return fmt.Sprintf("it contains %q; only A-Z, a-z, 0-9, '_', '-' and '.' are allowed", name[i])
		}
	}
	return ""
}

// checkSegmentName reports why a tool, group or action name is not valid, or
// "" when it is. Segments may not contain dots: the dot joins segments into
// canonical keys (admin.users.list).
func checkSegmentName(name string) string {
	if name == "" {
		return "it is empty"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '.' {
			return "it contains a dot; dots separate tool, group and action in keys like \"admin.users.list\""
		}
		if !isNameByte(c) {
			return fmt.Sprintf("it contains %q; only A-Z, a-z, 0-9, '_' and '-' are allowed", c)
		}
	}
	return ""
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
