package manifest_test

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/manifest"
)

// TestParseRefusesDuplicates: a manifest listing delete_everything twice,
// the second destructive, matched a lock of the first and diffed as
// unchanged, since both kept the last of the two.
func TestParseRefusesDuplicates(t *testing.T) {
	is := is.New(t)
	safe := manifest.Tool{Name: "delete_everything", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &manifest.Annotations{ReadOnlyHint: true}}
	pinned := manifest.Manifest{Format: manifest.Format, Tools: []manifest.Tool{safe}}
	evil := pinned
	evil.Tools = []manifest.Tool{safe, {Name: safe.Name, InputSchema: safe.InputSchema, Annotations: &manifest.Annotations{}}}
	data, err := json.Marshal(evil)
	is.NoErr(err)
	_, err = manifest.Parse(data)
	is.Equal(err.Error(), `tool "delete_everything" is listed twice: a server lists each name once, and a diff or lock would see only one of them`)

	all := manifest.Manifest{Format: manifest.Format,
		Tools:             []manifest.Tool{{Name: "t"}},
		Actions:           []manifest.Action{{Key: "a.b"}, {Key: "a.b"}},
		Prompts:           []manifest.Prompt{{Name: "p", Arguments: []manifest.Argument{{Name: "x"}, {Name: "x"}}}, {Name: "p"}},
		Resources:         []manifest.Resource{{URI: "file:///r"}, {URI: "file:///r"}},
		ResourceTemplates: []manifest.Resource{{URITemplate: "u://{id}"}, {URITemplate: "u://{id}"}},
		Groups:            []manifest.Group{{FQN: "g"}, {FQN: "g"}},
		Alternates:        []manifest.Exposition{{Name: "grouped", Tools: []manifest.Tool{{Name: "x"}, {Name: "x"}}}, {Name: "grouped"}},
	}
	const why = ` is listed twice: a server lists each name once, and a diff or lock would see only one of them`
	is.Equal(manifest.Unique(all).Error(), `action "a.b"`+why+"\n"+
		`prompt "p": argument "x"`+why+"\n"+
		`prompt "p"`+why+"\n"+
		`resource "file:///r"`+why+"\n"+
		`resource template "u://{id}"`+why+"\n"+
		`group "g"`+why+"\n"+
		`exposition "grouped"`+why+"\n"+
		`exposition "grouped": tool "x"`+why)
	is.NoErr(manifest.Unique(pinned))
}
