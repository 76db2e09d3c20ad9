// Package manifest writes down what an MCP server offers, so that a team
// can pin it and notice, in CI, a release that breaks its clients.
//
// A Manifest is the canonical, deterministic JSON form of a server's
// model: its tools (and, for a vurb app, its actions, groups and the tools
// of its other exposition), prompts and resources. A Lock records one
// digest per tool, action, prompt and resource over what a client depends
// on: names, schemas, annotations and descriptions. Diff compares two
// manifests and classifies every change as breaking or compatible, with a
// path and a one-line reason.
//
// Everything here is a pure function over plain values: a Manifest can be
// made from any server's tools/list (through model.FromServer), read from a
// file, compared and digested without a vurb App. The vurb command is built
// on it.
package manifest
