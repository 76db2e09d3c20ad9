package vurb

import (
	"fmt"

	"github.com/vurb-go/vurb/internal/engine"
)

// Exposition is how authored tools reach the wire. Authoring never depends
// on it: the same handlers serve either exposition from the same compiled
// plan. Each value names one implementation of the engine's exposition
// interface (flat.go and grouped.go in the compiled layer), which lowers a
// tool's compiled actions to wire tools.
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

// expositions are the implementations, by Exposition.
var expositions = [...]engine.Exposition{Flat: engine.Flat{}, Grouped: engine.Grouped{}}

// String returns "flat" or "grouped".
func (e Exposition) String() string {
	if e >= 0 && int(e) < len(expositions) {
		return expositions[e].String()
	}
	return fmt.Sprintf("Exposition(%d)", int(e))
}

// engine returns the implementation; WithExposition has checked e.
func (e Exposition) engine() engine.Exposition { return expositions[e] }
