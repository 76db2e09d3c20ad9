package schema

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

type agreeAll struct {
	Req       string          `json:"req" validate:"required"`
	ReqPtr    *int            `json:"req_ptr" validate:"required"`
	ReqBool   *bool           `json:"req_bool" validate:"required"`
	Min       string          `json:"min" validate:"min=2"`
	Gte       int             `json:"gte" validate:"gte=0"`
	OneOf     string          `json:"one_of" validate:"oneof=a b"`
	OptPtr    *int            `json:"opt_ptr" validate:"omitempty,min=1"`
	OptStr    string          `json:"opt_str,omitempty" validate:"omitempty,email"`
	Plain     string          `json:"plain"`
	Flag      bool            `json:"flag"`
	Slice     []string        `json:"slice" validate:"required"`
	SliceMin  []string        `json:"slice_min" validate:"min=1"`
	SliceOpt  []string        `json:"slice_opt" validate:"omitempty,min=1"`
	Struct    tagAddress      `json:"struct"`
	StructPtr *tagAddress     `json:"struct_ptr"`
	StructReq tagBase         `json:"struct_req" validate:"required"`
	Map       map[string]int  `json:"map" validate:"required"`
	Time      time.Time       `json:"time" validate:"required"`
	TimeOpt   *time.Time      `json:"time_opt"`
	Tagged    string          `json:"tagged" required:"true"`
	Any       any             `json:"any" validate:"required"`
	Raw       json.RawMessage `json:"raw"`
}

// agreementCases pairs each struct with arguments that satisfy every rule.
var agreementCases = []struct {
	typ   reflect.Type
	valid string
}{
	{reflect.TypeFor[agreeAll](), `{"req":"r","req_ptr":0,"req_bool":false,"min":"ab","gte":0,"one_of":"a","opt_ptr":1,
		"opt_str":"a@b.co","plain":"","flag":false,"slice":[],"slice_min":["x"],"slice_opt":["x"],
		"struct":{"city":"c"},"struct_ptr":{"city":"c"},"struct_req":{"workspace_id":"w"},"map":{},
		"time":"2024-01-02T15:04:05Z","time_opt":"2024-01-02T15:04:05Z","tagged":"t","any":1,"raw":[1]}`},
	{reflect.TypeFor[decodeInput](), `{"workspace_id":"w","limit":5,"kind":"a","name":"abc","email":"a@b.co","level":1,
		"count":1,"ratio":0.5,"items":[{"name":"ab"}],"tags":{"x":1},"since":"2024-01-02T15:04:05Z","meta":null,"pair":[1,2],"enabled":true}`},
	{reflect.TypeFor[tagNumbers](), `{"min":1,"max":1,"gte":1,"lte":1,"gt":1,"lt":1,"len":7,"both":0,"small":1,"uns":1,"big":1}`},
	{reflect.TypeFor[tagStrings](), `{"name":"abc","code":"abcd","short":"abc","kind":"done","email":"a@b.co","url":"https://x.io",
		"uri":"https://x.io","uuid":"9b2f8e55-1a51-4d0e-8b4a-9a3c5a0c6f10","when":"2024-01-02T15:04:05Z","day":"2024-01-02",
		"ip":"::1","ipv4":"1.2.3.4","ipv6":"::1","alpha":"abc","prefix":"v1.2","exact":"yes","either":"a@b.co"}`},
	{reflect.TypeFor[tagCollections](), `{"tags":["ab"],"ids":[1,2],"emails":["a@b.co"],"matrix":[[0,1]],"labels":{"a":"b"},"fixed":[1,2,3],"raw":"AQI="}`},
	{reflect.TypeFor[tagNested](), `{"workspace_id":"w","home":{"city":"c"},"work":{"city":"c"},"past":[{"city":"c"}],"by_tag":{"a":{"city":"c"}}}`},
}

// TestRequiredAgreement proves both directions of the schema/validator
// agreement on every field of every case: leaving a field out is refused
// exactly when the schema lists it as required, and the refusal names it.
func TestRequiredAgreement(t *testing.T) {
	for _, tc := range agreementCases {
		c := CodecFor(tc.typ)
		var base map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tc.valid), &base); err != nil {
			t.Fatal(err)
		}
		t.Run(tc.typ.Name()+"/valid", func(t *testing.T) {
			is := is.New(t)
			is.NoErr(c.Decode([]byte(tc.valid), reflect.New(tc.typ).Interface(), DecodeOptions{}))
		})
		for _, f := range c.Fields() {
			t.Run(tc.typ.Name()+"/"+f.Name, func(t *testing.T) {
				is := is.New(t)
				_, ok := base[f.Name]
				is.True(ok) // the valid arguments must set every field
				without := map[string]json.RawMessage{}
				for k, v := range base {
					if k != f.Name {
						without[k] = v
					}
				}
				data, _ := json.Marshal(without)
				err := c.Decode(data, reflect.New(tc.typ).Interface(), DecodeOptions{})
				if !f.Required {
					is.NoErr(err) // optional in the schema, so never refused when absent
					return
				}
				var e *Error
				is.True(errors.As(err, &e)) // required in the schema, so refused when absent
				is.Equal(len(e.Issues), 1)
				is.Equal(e.Issues[0], Issue{Path: f.Name, Message: DefaultMessages().Required})
			})
		}
	}
}

// TestRequiredList pins which fields agreeAll's schema requires, and why.
func TestRequiredList(t *testing.T) {
	is := is.New(t)
	var req []string
	for _, f := range For[agreeAll]().Fields() {
		if f.Required {
			req = append(req, f.Name)
		}
	}
	// min and one_of reject "", slice_min rejects nil, struct rejects a zero
	// city: absent means zero, so they are required although untagged so.
	is.Equal(strings.Join(req, ","), "req,req_ptr,req_bool,min,one_of,slice,slice_min,struct,struct_req,map,time,tagged,any")
}
