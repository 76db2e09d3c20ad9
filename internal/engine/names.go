package engine

import (
	"fmt"
	"strings"
)

// MaxToolNameLen is the MCP limit on a tool name's length.
const MaxToolNameLen = 128

// FlatName is the wire name of one action in flat exposition: the tool name
// and the action key joined by sep, with the group dot replaced by sep too.
func FlatName(tool, actionKey, sep string) string {
	if actionKey == "" { // a tool that is one action
		return tool
	}
	return tool + sep + strings.ReplaceAll(actionKey, ".", sep)
}

// CheckWireName reports why name is not a valid MCP tool name, or "" when it
// is: 1 to 128 characters of A-Z, a-z, 0-9, underscore, hyphen and dot.
func CheckWireName(name string) string {
	if name == "" {
		return "it is empty"
	}
	if len(name) > MaxToolNameLen {
		return fmt.Sprintf("it is %d characters long; the limit is %d", len(name), MaxToolNameLen)
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) && name[i] != '.' {
			return fmt.Sprintf("it contains %q; only A-Z, a-z, 0-9, '_', '-' and '.' are allowed", name[i])
		}
	}
	return ""
}

// CheckSegmentName reports why a tool, group or action name is not valid,
// or "" when it is. Segments may not contain dots: the dot joins segments
// into canonical keys (admin.users.list).
func CheckSegmentName(name string) string {
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

// mustWireName panics, naming the action, when name cannot be a tool name.
func mustWireName(name, key string) {
	if why := CheckWireName(name); why != "" {
		panic(fmt.Sprintf("vurb: %q (for %s) is not a valid MCP tool name: %s", name, key, why))
	}
}
