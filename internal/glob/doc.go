// Package glob matches canonical dotted action keys ("tasks.update",
// "admin.users.deactivate") against policy patterns ("countries.*",
// "sprints.**", "task*.get").
//
// Matching works on dot-separated segments: a literal segment matches itself
// (case-sensitively), "*" matches exactly one segment, "**" matches zero or
// more segments, and a "*" inside a segment ("task*", "*_list") matches any
// run of characters within that one segment. Patterns are validated by
// [Compile] when an app is built, so a typo in a policy fails the build
// instead of silently matching nothing at run time.
//
// Both [Pattern.Match] and [Pattern.Covers] simulate the pattern as a set of
// positions advanced one segment at a time, never by backtracking, so an
// adversarial pattern such as "**.**.**.x" cannot make them exponential.
package glob
