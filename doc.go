// Package vurb builds MCP (Model Context Protocol) servers from typed Go
// handlers. Tools are declared over input structs whose tags carry the
// description, the required flags and the constraints; vurb compiles every
// tool once into an immutable plan and serves it through the official Go SDK.
//
// # How it works
//
// vurb has two layers, and a serving edge in front of the second; the
// boundaries between them are import boundaries.
//
// The definition layer is this package: New, the typed builders (Query,
// Action, Mutation), tools, groups, middleware, prompts, resources and
// options. It is mutable until Build. Declaring an action reflects its
// input struct once, into a codec (package schema: the JSON Schema, the
// strict decoder, the validator bridge), and adapts the typed handler to
// the one untyped Handler shape.
//
// Build lowers the definitions to plain specs: per action its codec, its
// decoder, its middleware chain composed once (app, tool, group, action,
// handler), its deadline, tags and state-sync rule; per app a runtime
// (logger, observer, limits, messages, request ids). The compiled layer,
// an internal engine package, turns the specs into an immutable plan: the
// wire tools of tools/list, made by the chosen Exposition (Flat or
// Grouped), and a route table. The plan never refers back to the App.
//
// The serving edge, an internal edge package that never imports this one,
// serves the built app: stdio, the go-sdk server with the app's tools,
// prompts and resources, and the HTTP stack. A tools/call served by
// HTTPHandler or ListenAndServe passes, in this order (the doc comment of
// the one function that builds the stack, in internal/edge/stack.go,
// holds the full list):
//
//	guard          Host and Origin, the loopback rule against DNS rebinding
//	auth           the bearer token verified (WithBearerAuth): 401 or 403
//	front door     the body read once, within WithMaxBodyBytes, and its
//	               JSON-RPC envelope parsed once: every front reads that
//	challenge      403 naming the scopes the call needs (WithScopeChallenges)
//	fronts         a sessionless request: the tasks front, then the fast
//	               lane, each answering what it recognises, then the
//	               go-sdk's stateless handler; any other request: the
//	               session quota, then the go-sdk's stateful handler
//
// Then the call, in-process (App.Call) or served (by the fast lane, or by
// the go-sdk through Attach, NewServer, Serve or HTTPHandler), takes one
// path through the engine:
//
//	route lookup   one map read by wire name (the SDK's, when served)
//	pick           grouped tools read the discriminator, nothing else
//	decode         strict decoding and validation of the arguments
//	limits         the action's rate limits, then a concurrency slot
//	chain          the precomposed middleware and the handler, under the
//	               deadline, on a worker goroutine, panics contained
//	result         the handler's value as MCP content (its text cut to the
//	               output cap), plus the state-sync notice
//
// Views of the plan (a server that exposes only some tags) are derived from
// the plan: a grouped tool some of whose actions are hidden is listed over
// the others and shares their compiled chains; nothing is compiled again
// and no middleware constructor runs twice.
package vurb
