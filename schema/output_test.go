package schema

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/matryer/is"
)

type (
	projectOut struct {
		ID       string            `json:"id" validate:"required" description:"Project ID"`
		Name     string            `json:"name"`
		Count    int               `json:"count" validate:"required"`
		Owner    *userOut          `json:"owner"`
		Tags     []string          `json:"tags"`
		Labels   map[string]string `json:"labels,omitempty"`
		Archived *bool             `json:"archived,omitempty"`
		Created  time.Time         `json:"created"`
		Extra    any               `json:"extra"`
		Parent   *treeNode         `json:"parent"`
	}
	userOut struct {
		Email string `json:"email" validate:"email"`
	}
	selfMarshaled struct{ X int }
	hiddenBase    struct {
		Secret string `json:"secret,omitempty"`
	}
	// outputOnly is fine as an output although CodecFor refuses it.
	outputOnly struct {
		*hiddenBase
		Big   int64 `json:"big,string" description:"Big number"`
		Count int   `json:"count" validate:"required"`
	}
)

func (selfMarshaled) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

func TestOutputSchema(t *testing.T) {
	is := is.New(t)
	s, ok := OutputSchema(reflect.TypeFor[*projectOut]())
	is.True(ok)
	is.Equal(string(s), `{"type":"object","properties":{`+
		`"id":{"type":"string","description":"Project ID"},`+
		`"name":{"type":"string"},`+
		`"count":{"type":"integer"},`+
		`"owner":{"type":["object","null"],"properties":{"email":{"type":"string"}}},`+
		`"tags":{"type":["array","null"],"items":{"type":"string"}},`+
		`"labels":{"type":"object","additionalProperties":{"type":"string"}},`+
		`"archived":{"type":"boolean"},`+
		`"created":{"type":"string","format":"date-time"},`+
		`"extra":{},`+
		`"parent":{"anyOf":[{"$ref":"#/$defs/treeNode"},{"type":"null"}]}},`+
		`"required":["id","count"],`+
		`"$defs":{"treeNode":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/treeNode"}}},"required":["name"]}}}`)

	again, _ := OutputSchema(reflect.TypeFor[projectOut]())
	is.Equal(string(again), string(s)) // cached, pointer or not
}

func TestOutputSchemaOutputOnlyShapes(t *testing.T) {
	is := is.New(t)
	s, ok := OutputSchema(reflect.TypeFor[outputOnly]())
	is.True(ok)
	is.Equal(string(s), `{"type":"object","properties":{"secret":{"type":"string"},"big":{"type":"string","description":"Big number"},"count":{"type":"integer"}},"required":["count"]}`)
}

func TestOutputSchemaNotObject(t *testing.T) {
	for _, typ := range []reflect.Type{
		nil,
		reflect.TypeFor[string](),
		reflect.TypeFor[[]projectOut](),
		reflect.TypeFor[map[string]any](),
		reflect.TypeFor[time.Time](),
		reflect.TypeFor[selfMarshaled](),
		reflect.TypeFor[json.RawMessage](),
	} {
		s, ok := OutputSchema(typ)
		is.New(t).True(!ok && s == nil)
	}
}
