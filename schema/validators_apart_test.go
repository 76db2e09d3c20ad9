package schema

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
)

// localNode shares its name with the node type declared in
// TestValidatorsNameDefinitionsApart: two recursive types named alike.
type localNode struct {
	Next *localNode `json:"next,omitempty"`
}

// TestValidatorsBuildAtOnce: Validators built from many goroutines at once
// (as the apps of one process are) share no lock, cache or reflector, so
// the race detector finds nothing, and each builds its own schemas, equal
// to what a Validator built alone makes.
func TestValidatorsBuildAtOnce(t *testing.T) {
	is := is.New(t)
	alone := NewValidator(nil)
	want := []string{
		string(alone.CodecFor(reflect.TypeFor[treeInput]()).Schema()),
		string(alone.CodecFor(reflect.TypeFor[mutualA]()).Schema()),
		output(t, alone, reflect.TypeFor[treeNode]()),
	}
	const n = 8
	got := make([][]string, 2*n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			v := NewValidator(nil)
			var inner sync.WaitGroup
			for k := range 2 { // and each Validator from two goroutines
				inner.Go(func() {
					got[2*i+k] = []string{
						string(v.CodecFor(reflect.TypeFor[treeInput]()).Schema()),
						string(v.CodecFor(reflect.TypeFor[mutualA]()).Schema()),
						output(t, v, reflect.TypeFor[treeNode]()),
					}
					_, _ = v.OutputSchemaRedacted(reflect.TypeFor[treeNode](),
						Redactions{reflect.TypeFor[treeNode](): {"name": {Marker: "x"}}})
					_ = JSONFields(reflect.TypeFor[treeNode]())
				})
			}
			inner.Wait()
		})
	}
	wg.Wait()
	for i := range got {
		is.Equal(got[i], want)
	}
}

// TestValidatorsNameDefinitionsApart: a schema's definition names depend on
// what its own Validator reflected, not on what another built before it.
func TestValidatorsNameDefinitionsApart(t *testing.T) {
	is := is.New(t)
	type localNode struct {
		Value string     `json:"value,omitempty"`
		Next  *localNode `json:"next,omitempty"`
	}
	outer, inner := reflect.TypeFor[outerList](), reflect.TypeFor[localNode]()

	shared := NewValidator(nil)
	shared.CodecFor(outer)
	is.True(strings.Contains(string(shared.CodecFor(inner).Schema()), `"#/$defs/localNode2"`)) // one Validator: distinct names

	is.True(strings.Contains(string(NewValidator(nil).CodecFor(inner).Schema()), `"#/$defs/localNode"`))
}

// outerList holds the package-level localNode.
type outerList struct {
	Head *localNode `json:"head,omitempty"`
}

// output is v's output schema of t, which must have one.
func output(t *testing.T, v *Validator, typ reflect.Type) string {
	t.Helper()
	s, ok := v.OutputSchema(typ)
	if !ok {
		t.Fatalf("no output schema for %s", typ)
	}
	return string(s)
}
