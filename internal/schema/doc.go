// Package schema is the implementation behind github.com/vurb-go/vurb/schema:
// struct to JSON Schema, the strict decoder, the validator bridge, and the
// texts of every refusal. The public package is a thin facade over it; its
// documentation is the user's guide to what this package does.
//
// It stands apart so that the helpers only vurb's compiled engine needs
// stay out of the public API: Merge and MergeWith (the one schema of a
// grouped tool), Lookup and LookupWith (reading its discriminator
// before decoding), DecodeSkipping (decoding an action's
// arguments with the discriminator accepted and ignored), Member,
// OutputSchemaWith and OutputSchemaRedacted (an app's output schemas,
// built with its Validator), DefaultValidator and Pending (the
// placeholder of a hand-written schema not given yet).
//
// Nothing here reads process-wide configuration on a call: a decode reads
// the Messages of its DecodeOptions (the built-in texts when nil) and the
// Validator its Codec was built for. The build machinery (its lock, the
// schema reflector, definition names, per-type caches) belongs to each
// Validator, so an app that builds with its own shares nothing with other
// apps. The one package-level value is the default Validator of the
// package-level CodecFor, For and OutputSchema, made at their first use,
// which nothing outside this module can reconfigure.
package schema
