package schema

import (
	"reflect"
	"slices"
	"testing"

	"github.com/matryer/is"
)

// methods lists the exported methods of t.
func methods(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumMethod(); i++ {
		out = append(out, t.Method(i).Name)
	}
	slices.Sort(out)
	return out
}

// TestPublicSurface pins what the aliases expose: the grouped-tool helpers
// of the implementation (Merge, Lookup, DecodeSkipping, the Skip option)
// must not leak through a method or a field.
func TestPublicSurface(t *testing.T) {
	is := is.New(t)
	is.Equal(methods(reflect.TypeFor[*Codec]()), []string{"Decode", "Fields", "Schema", "Type"})
	is.Equal(methods(reflect.TypeFor[*Validator]()), []string{"CodecFor", "RegisterRule"})
	opts := reflect.TypeFor[DecodeOptions]()
	var fields []string
	for i := 0; i < opts.NumField(); i++ {
		fields = append(fields, opts.Field(i).Name)
	}
	is.Equal(fields, []string{"Limits", "Messages"})
}
