package schema

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The pre-scan decides what is accepted; the JSON decoder only fills the
// struct. These hold that the decoder fills it as encoding/json would, for
// every kind of field a handler's input can have.

// upper is a field type with its own UnmarshalJSON.
type upper string

func (u *upper) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*u = upper(strings.ToUpper(s))
	return nil
}

type (
	agreeInner struct {
		Label string `json:"label"`
		N     int    `json:"n,omitempty"`
	}
	agreeEmbedded struct {
		Shared string `json:"shared,omitempty"`
	}
	agreeInput struct {
		agreeEmbedded
		Text    string            `json:"text,omitempty"`
		Int     int64             `json:"int,omitempty"`
		Uint    uint16            `json:"uint,omitempty"`
		Float   float64           `json:"float,omitempty"`
		Ptr     *int              `json:"ptr,omitempty"`
		Bool    bool              `json:"bool,omitempty"`
		When    time.Time         `json:"when,omitzero"`
		WhenPtr *time.Time        `json:"when_ptr,omitempty"`
		Bytes   []byte            `json:"bytes,omitempty"`
		Raw     json.RawMessage   `json:"raw,omitempty"`
		Addr    netip.Addr        `json:"addr,omitzero"`
		Upper   upper             `json:"upper,omitempty"`
		Any     any               `json:"any,omitempty"`
		Map     map[string]any    `json:"map,omitempty"`
		IntKeys map[int]string    `json:"int_keys,omitempty"`
		Items   []agreeInner      `json:"items,omitempty"`
		Inner   *agreeInner       `json:"inner,omitempty"`
		Matrix  [][]float32       `json:"matrix,omitempty"`
		Fixed   [3]string         `json:"fixed"`
		Nested  map[string][]bool `json:"nested,omitempty"`
	}
)

func TestDecodeFillsAsEncodingJSONDoes(t *testing.T) {
	inputs := []string{
		`{}`,
		`{"text":"h\u00e9llo \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t","int":-9007199254740993,"uint":65535,"float":-1.5e-7}`,
		`{"ptr":0,"bool":true,"shared":"embedded"}`,
		`{"when":"2024-02-29T23:59:59.123456789+05:30","when_ptr":"2001-01-01T00:00:00Z"}`,
		`{"bytes":"aGVsbG8gd29ybGQ=","raw":{"b": [1, 2,  {"c":null}]}}`,
		`{"addr":"::ffff:10.0.0.1","upper":"shout"}`,
		`{"any":12345678901234567890,"map":{"a":[1,"x",null,true,{"b":1.0}]}}`,
		`{"any":[],"map":{}}`,
		`{"int_keys":{"-3":"minus","10":"ten"}}`,
		`{"items":[{"label":"a"},{"label":"b","n":2}],"inner":{"label":"in"}}`,
		`{"matrix":[[1.25,-0],[],[3e2]],"fixed":["x","y","z"],"nested":{"k":[true,false]}}`,
		`{"fixed":["only one"]}`,
		`{"any":null,"map":{"k":null},"raw":null}`,
	}
	c := For[agreeInput]()
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			var got, want agreeInput
			if err := c.Decode([]byte(in), &got, DecodeOptions{}); err != nil {
				t.Fatalf("refused: %v", err)
			}
			if err := json.Unmarshal([]byte(in), &want); err != nil {
				t.Fatalf("encoding/json refused what the pre-scan accepted: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("decoded\n%s\nencoding/json\n%s", dump(got), dump(want))
			}
		})
	}
}

// TestDecodeRefusesAsEncodingJSONDoes: what only the field's own
// unmarshaller refuses is refused, with that unmarshaller's reason.
func TestDecodeRefusesAsEncodingJSONDoes(t *testing.T) {
	c := For[agreeInput]()
	for _, in := range []string{
		`{"when":"yesterday"}`,
		`{"addr":"not an address"}`,
		`{"bytes":"!!not base64!!"}`,
	} {
		t.Run(in, func(t *testing.T) {
			var v agreeInput
			if err := json.Unmarshal([]byte(in), &v); err == nil {
				t.Fatalf("encoding/json accepts %s", in)
			}
			if err := c.Decode([]byte(in), &v, DecodeOptions{}); err == nil {
				t.Fatalf("accepted %s", in)
			}
		})
	}
}

func dump(v any) string { return fmt.Sprintf("%#v", v) }
