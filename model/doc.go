// Package model is the domain model of an MCP server: its groups, tools,
// actions, prompts and resources as an immutable tree, with converters to
// and from the go-sdk's wire types.
//
// It stands apart from package vurb because it describes any MCP server,
// not only vurb's: the vurb command builds a Model from the tools/list,
// prompts/list and resources/list of whatever server it talks to
// (FromServer), and a vurb App builds one from its definitions
// (App.Model). Both feed package manifest. Importing model costs only the
// go-sdk.
//
// # The tree
//
// Every entity carries a name, a title, a description, _meta and icons.
// Groups form trees: a vurb tool is a group of kind KindTool, its groups
// (admin.users) are groups of kind KindGroup, and organisational
// categories (platform.users.management) are groups of kind KindCategory.
// Leaves (tools, actions, prompts, resources) can have several parents: an
// action sits in its tool or group and in every category its tool joined,
// so the same search tool can be listed under both "user-facing" and
// "admin". A group's fully qualified name walks up to its root, joined by
// the model's separator (WithSeparator, "." by default).
//
// A Tool is one MCP tool as a client lists it (a *mcp.Tool, one to one).
// An Action is one vurb action: what a tool call dispatches to, independent
// of the exposition. In flat exposition each action is exposed as its own
// tool; in grouped exposition one tool exposes all the actions of a vurb
// tool. A model of a vurb app holds the tools of both expositions
// (ToolsIn), one of which is served (Tools).
//
// # Immutability
//
// A Model and everything reachable from it never change once built: every
// accessor returns a copy of what it holds (a slice, a map, a schema), so a
// Model can be shared between goroutines and kept as a snapshot. Entities
// are built only through a Builder, whose Build ends its use.
package model
