package toon

import (
	"fmt"
	"reflect"
)

// SyntaxError reports TOON text that cannot be decoded. Line lets a caller
// (or a model repairing its own output) go straight to the offending line.
type SyntaxError struct {
	Line int    // 1-based line of the input where the problem was found
	Msg  string // what is wrong, without the position
}

// Error formats the error as "toon: line N: message", the position first
// so that a reader of a long document knows where to look.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("toon: line %d: %s", e.Line, e.Msg)
}

func syntaxErrorf(line int, format string, args ...any) error {
	return &SyntaxError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// UnsupportedTypeError is returned by Marshal for Go types with no JSON
// form (channels, functions, complex numbers), the same set encoding/json
// refuses.
type UnsupportedTypeError struct {
	Type reflect.Type
}

// Error names the Go type, which is what the caller has to change.
func (e *UnsupportedTypeError) Error() string {
	return "toon: unsupported type: " + e.Type.String()
}
