// Package servercard builds an MCP server card (SEP-2127, the extension
// io.modelcontextprotocol/server-card): the static document that tells a
// client or a registry what a remote MCP server is and where to reach it,
// before it connects. vurb serves an app's card when the app opts in with
// vurb.WithServerCard, generated from what the app already says of
// itself (its name, version and protocol revisions) and the Options given
// there; the card holds no tools, capabilities or auth requirements, by
// the SEP's design.
package servercard
