package toon

import (
	"fmt"
	"math"
)

// Option tunes one call of Marshal, FromJSON, Unmarshal or ToJSON. Each
// function reads only the options that concern its direction and ignores the
// others, so one option list can be shared by an encoder and a decoder.
type Option func(*options)

// Delimiter is the character that separates inline array values and tabular
// cells. It is a closed set because a decoder only recognizes these three in
// an array header (spec §6).
type Delimiter byte

// The delimiters the spec defines. Comma is the default and the only one
// that is not spelled out in array headers.
const (
	Comma Delimiter = ','
	Tab   Delimiter = '\t'
	Pipe  Delimiter = '|'
)

// KeyFolding selects whether the encoder collapses chains of single-key
// objects into dotted keys (a.b.c: 1). Folding saves lines and tokens, but a
// reader only gets the nesting back with ExpandPathsSafe.
type KeyFolding uint8

// The key folding modes of spec §13.4.
const (
	// KeyFoldingOff writes every object level as its own line (default).
	KeyFoldingOff KeyFolding = iota
	// KeyFoldingSafe folds chains whose segments are all identifiers and
	// whose folded key collides with no sibling.
	KeyFoldingSafe
)

// ExpandPaths selects whether the decoder splits unquoted dotted keys back
// into nested objects, the inverse of KeyFoldingSafe.
type ExpandPaths uint8

// The path expansion modes of spec §13.4.
const (
	// ExpandPathsOff keeps dotted keys as literal keys (default).
	ExpandPathsOff ExpandPaths = iota
	// ExpandPathsSafe expands unquoted keys whose dot-separated segments
	// are all identifiers, deep-merging objects that share a prefix.
	ExpandPathsSafe
)

type options struct {
	delim   byte
	indent  int
	fold    KeyFolding
	flatten int // most segments in one folded key
	strict  bool
	expand  ExpandPaths
}

func defaultOptions() options {
	return options{delim: ',', indent: 2, flatten: math.MaxInt, strict: true}
}

func buildOptions(opts []Option) options {
	o := defaultOptions()
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// WithDelimiter sets the document delimiter the encoder uses for every array
// header, row and inline list, and for the quoting of field values (spec
// §11.1). Decoders need no such option: each header declares its own.
// It panics on a delimiter other than Comma, Tab or Pipe, as that is a
// programming error no input can cause.
func WithDelimiter(d Delimiter) Option {
	switch d {
	case Comma, Tab, Pipe:
	default:
		panic(fmt.Sprintf("toon.WithDelimiter: %q is not a TOON delimiter; use toon.Comma, toon.Tab or toon.Pipe", rune(d)))
	}
	return func(o *options) { o.delim = byte(d) }
}

// WithIndent sets the number of spaces per nesting level: the width the
// encoder writes and the width the decoder expects (default 2). It panics on
// n < 1 because TOON cannot express nesting without indentation.
func WithIndent(n int) Option {
	if n < 1 {
		panic(fmt.Sprintf("toon.WithIndent: indent must be at least 1 space, got %d", n))
	}
	return func(o *options) { o.indent = n }
}

// WithKeyFolding turns dotted-key folding on or off for encoding.
func WithKeyFolding(mode KeyFolding) Option {
	return func(o *options) { o.fold = mode }
}

// WithFlattenDepth caps how many segments one folded key may hold when key
// folding is on (default unlimited); values below 2 disable folding in
// effect. It panics on a negative depth.
func WithFlattenDepth(n int) Option {
	if n < 0 {
		panic(fmt.Sprintf("toon.WithFlattenDepth: depth must not be negative, got %d", n))
	}
	return func(o *options) { o.flatten = n }
}

// WithStrict sets strict decoding (default true): declared lengths, row
// widths, indentation, blank lines inside arrays, duplicate keys and path
// expansion conflicts are then errors (spec §14). Non-strict decoding
// accepts them: the last duplicate wins, blank lines are skipped, and
// indentation is rounded down to whole levels, a tab counting as one level.
func WithStrict(strict bool) Option {
	return func(o *options) { o.strict = strict }
}

// WithExpandPaths turns dotted-key expansion on or off for decoding.
func WithExpandPaths(mode ExpandPaths) Option {
	return func(o *options) { o.expand = mode }
}
