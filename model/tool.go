package model

import (
	"encoding/json"
	"slices"
	"strings"
)

// Tool is one MCP tool as a client lists it, and where it sits in the
// model. Its wire fields (name, title, description, schemas, annotations,
// _meta, icons) convert to and from a *mcp.Tool without loss
// (ToolToWire, ToolFromWire).
type Tool struct {
	entity
	m           *Model
	exposition  string
	input       json.RawMessage
	output      json.RawMessage
	annotations *Annotations

	exposes *Group // the vurb tool a grouped tool exposes, else nil
	actions []*Action
	joined  []*Group // groups it joined directly
	parents []*Group // computed at Build
	path    []string
}

// InputSchema returns a copy of the tool's input JSON Schema, or nil.
func (t *Tool) InputSchema() json.RawMessage { return slices.Clone(t.input) }

// OutputSchema returns a copy of the tool's output JSON Schema, or nil
// when the tool declares none.
func (t *Tool) OutputSchema() json.RawMessage { return slices.Clone(t.output) }

// Annotations returns a copy of the tool's annotations, or nil when it has
// none.
func (t *Tool) Annotations() *Annotations { return copyAnnotations(t.annotations) }

// Exposition returns the exposition the tool belongs to ("flat" or
// "grouped" for a vurb app, "" for a server the model only saw on the
// wire).
func (t *Tool) Exposition() string { return t.exposition }

// Actions returns the vurb actions a call of the tool can reach: one in
// flat exposition, every action of the vurb tool in grouped exposition,
// none for a tool of another server.
func (t *Tool) Actions() []*Action { return slices.Clone(t.actions) }

// Exposes returns the vurb tool (a group of kind KindTool) a grouped tool
// exposes, or nil.
func (t *Tool) Exposes() *Group { return t.exposes }

// Parents returns the groups the tool sits in: the vurb tool or group of
// what it exposes, then every category one of its actions (or the tool
// itself) joined, in order of first appearance.
func (t *Tool) Parents() []*Group { return slices.Clone(t.parents) }

// Path returns the dotted path of what the tool exposes: an action's
// (admin.users.list) in flat exposition, a vurb tool's (admin) in grouped
// exposition, the tool's name otherwise.
func (t *Tool) Path() []string { return slices.Clone(t.path) }

// FQN returns the tool's path joined by the model's separator.
func (t *Tool) FQN() string { return strings.Join(t.path, t.m.separator()) }

// Tags returns the tags of the tool's actions, each once, in order of
// first appearance.
func (t *Tool) Tags() []string {
	var out []string
	for _, a := range t.actions {
		for _, tag := range a.tags {
			if !slices.Contains(out, tag) {
				out = append(out, tag)
			}
		}
	}
	return out
}
