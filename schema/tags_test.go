package schema

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/matryer/is"
)

type (
	tagNames struct {
		Renamed  string `json:"renamed"`
		Omitted  string `json:"-"`
		Untagged string
		//lint:ignore U1000 proves unexported fields stay out
		hidden   string
		Optional string `json:"optional,omitempty"`
		//lint:ignore SA5008 a field named "-" is what this case tests
		Dash      string `json:"-,"`
		Described string `json:"described" description:"Says why, not what"`
	}
	tagNumbers struct {
		Min   int      `json:"min" validate:"min=1"`
		Max   *int     `json:"max,omitempty" validate:"omitempty,max=10"`
		Gte   float64  `json:"gte" validate:"gte=0.5"`
		Lte   *float64 `json:"lte,omitempty" validate:"omitempty,lte=9.5"`
		Gt    *int     `json:"gt,omitempty" validate:"omitempty,gt=0"`
		Lt    *int     `json:"lt,omitempty" validate:"omitempty,lt=100"`
		Len   *int     `json:"len,omitempty" validate:"omitempty,len=7"`
		Both  *int64   `json:"both,omitempty" validate:"omitempty,gte=-5,lte=5"`
		Small *int8    `json:"small,omitempty"`
		Uns   *uint16  `json:"uns,omitempty" validate:"omitempty,max=1000"`
		Big   *uint64  `json:"big,omitempty"`
	}
	tagStrings struct {
		Name   string  `json:"name" validate:"required,min=3,max=20"`
		Code   *string `json:"code,omitempty" validate:"omitempty,len=4"`
		Short  *string `json:"short,omitempty" validate:"omitempty,lt=5,gt=1"`
		Kind   string  `json:"kind,omitempty" validate:"omitempty,oneof=draft 'in review' done"`
		Email  string  `json:"email,omitempty" validate:"omitempty,email"`
		URL    string  `json:"url,omitempty" validate:"omitempty,url"`
		URI    string  `json:"uri,omitempty" validate:"omitempty,uri"`
		UUID   string  `json:"uuid,omitempty" validate:"omitempty,uuid4"`
		When   string  `json:"when,omitempty" validate:"omitempty,datetime=2006-01-02T15:04:05Z07:00"`
		Day    string  `json:"day,omitempty" validate:"omitempty,datetime=2006-01-02"`
		IP     string  `json:"ip,omitempty" validate:"omitempty,ip"`
		IPv4   string  `json:"ipv4,omitempty" validate:"omitempty,ipv4"`
		IPv6   string  `json:"ipv6,omitempty" validate:"omitempty,ipv6"`
		Alpha  string  `json:"alpha,omitempty" validate:"omitempty,alpha"`
		Prefix string  `json:"prefix,omitempty" validate:"omitempty,startswith=v1."`
		Exact  string  `json:"exact,omitempty" validate:"omitempty,eq=yes"`
		Either string  `json:"either,omitempty" validate:"omitempty,email|url"`
	}
	tagCollections struct {
		Tags   []string          `json:"tags" validate:"min=1,max=5,dive,min=2"`
		IDs    []int             `json:"ids,omitempty" validate:"omitempty,len=2,unique,dive,gt=0"`
		Emails []string          `json:"emails,omitempty" validate:"omitempty,dive,email"`
		Matrix [][]int           `json:"matrix,omitempty" validate:"omitempty,dive,max=3,dive,oneof=0 1"`
		Labels map[string]string `json:"labels,omitempty" validate:"omitempty,max=10,dive,keys,alpha,endkeys,max=30"`
		Fixed  [3]int            `json:"fixed"`
		Raw    []byte            `json:"raw,omitempty"`
	}
	tagDefaults struct {
		Limit   int             `json:"limit,omitempty" default:"20" example:"50"`
		Ratio   float64         `json:"ratio,omitempty" default:"0.5"`
		Verbose bool            `json:"verbose,omitempty" default:"true"`
		Sort    string          `json:"sort,omitempty" default:"name" example:"created" enum:"name,created"`
		Level   int             `json:"level,omitempty" enum:"1,2,3"`
		Ptr     *int            `json:"ptr,omitempty" default:"3"`
		Since   time.Time       `json:"since"`
		Until   *time.Time      `json:"until,omitempty"`
		Meta    any             `json:"meta,omitempty"`
		Payload json.RawMessage `json:"payload,omitempty"`
	}
	tagAddress struct {
		City string `json:"city" validate:"required"`
		Zip  string `json:"zip,omitempty" validate:"omitempty,numeric,len=5"`
	}
	tagBase struct {
		WorkspaceID string `json:"workspace_id" validate:"required" description:"Workspace ID"`
	}
	tagNested struct {
		tagBase
		Home  tagAddress            `json:"home" description:"Home address"`
		Work  *tagAddress           `json:"work,omitempty"`
		Past  []tagAddress          `json:"past,omitempty" validate:"omitempty,max=2,dive"`
		ByTag map[string]tagAddress `json:"by_tag,omitempty" validate:"omitempty,dive"`
	}
)

var tagCases = []struct {
	name string
	v    any
	want string
}{
	{"names", tagNames{}, `{"type":"object","properties":{"renamed":{"type":"string"},"Untagged":{"type":"string"},"optional":{"type":"string"},"-":{"type":"string"},"described":{"type":"string","description":"Says why, not what"}},"additionalProperties":false}`},
	{"numbers", tagNumbers{}, `{"type":"object","properties":{"min":{"type":"integer","minimum":1},"max":{"type":"integer","maximum":10},"gte":{"type":"number","minimum":0.5},"lte":{"type":"number","maximum":9.5},"gt":{"type":"integer","exclusiveMinimum":0},"lt":{"type":"integer","exclusiveMaximum":100},"len":{"type":"integer","minimum":7,"maximum":7},"both":{"type":"integer","minimum":-5,"maximum":5},"small":{"type":"integer","minimum":-128,"maximum":127},"uns":{"type":"integer","minimum":0,"maximum":1000},"big":{"type":"integer","minimum":0}},"required":["min","gte"],"additionalProperties":false}`},
	{"strings", tagStrings{}, `{"type":"object","properties":{"name":{"type":"string","minLength":3,"maxLength":20},"code":{"type":"string","minLength":4,"maxLength":4},"short":{"type":"string","minLength":2,"maxLength":4},"kind":{"type":"string","enum":["draft","in review","done"]},"email":{"type":"string","format":"email"},"url":{"type":"string","format":"uri"},"uri":{"type":"string","format":"uri"},"uuid":{"type":"string","pattern":"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"},"when":{"type":"string","format":"date-time"},"day":{"type":"string","format":"date"},"ip":{"type":"string","anyOf":[{"format":"ipv4"},{"format":"ipv6"}]},"ipv4":{"type":"string","format":"ipv4"},"ipv6":{"type":"string","format":"ipv6"},"alpha":{"type":"string","pattern":"^[a-zA-Z]+$"},"prefix":{"type":"string","pattern":"^v1\\."},"exact":{"type":"string","const":"yes"},"either":{"type":"string","anyOf":[{"format":"email"},{"format":"uri"}]}},"required":["name"],"additionalProperties":false}`},
	{"collections", tagCollections{}, `{"type":"object","properties":{"tags":{"type":"array","minItems":1,"maxItems":5,"items":{"type":"string","minLength":2}},"ids":{"type":"array","minItems":2,"maxItems":2,"uniqueItems":true,"items":{"type":"integer","exclusiveMinimum":0}},"emails":{"type":"array","items":{"type":"string","format":"email"}},"matrix":{"type":"array","items":{"type":"array","maxItems":3,"items":{"type":"integer","enum":[0,1]}}},"labels":{"type":"object","maxProperties":10,"propertyNames":{"type":"string","pattern":"^[a-zA-Z]+$"},"additionalProperties":{"type":"string","maxLength":30}},"fixed":{"type":"array","maxItems":3,"items":{"type":"integer"}},"raw":{"type":"string","format":"base64"}},"required":["tags"],"additionalProperties":false}`},
	{"defaults", tagDefaults{}, `{"type":"object","properties":{"limit":{"type":"integer","default":20,"examples":[50]},"ratio":{"type":"number","default":0.5},"verbose":{"type":"boolean","default":true},"sort":{"type":"string","enum":["name","created"],"default":"name","examples":["created"]},"level":{"type":"integer","enum":[1,2,3]},"ptr":{"type":"integer","default":3},"since":{"type":"string","format":"date-time"},"until":{"type":"string","format":"date-time"},"meta":{},"payload":{}},"additionalProperties":false}`},
	{"nested", tagNested{}, `{"type":"object","properties":{"workspace_id":{"type":"string","minLength":1},"home":{"type":"object","description":"Home address","properties":{"city":{"type":"string","minLength":1},"zip":{"type":"string","pattern":"^[-+]?[0-9]+(?:\\.[0-9]+)?$","minLength":5,"maxLength":5}},"required":["city"],"additionalProperties":false},"work":{"type":"object","properties":{"city":{"type":"string","minLength":1},"zip":{"type":"string","pattern":"^[-+]?[0-9]+(?:\\.[0-9]+)?$","minLength":5,"maxLength":5}},"required":["city"],"additionalProperties":false},"past":{"type":"array","maxItems":2,"items":{"type":"object","properties":{"city":{"type":"string","minLength":1},"zip":{"type":"string","pattern":"^[-+]?[0-9]+(?:\\.[0-9]+)?$","minLength":5,"maxLength":5}},"required":["city"],"additionalProperties":false}},"by_tag":{"type":"object","additionalProperties":{"type":"object","properties":{"city":{"type":"string","minLength":1},"zip":{"type":"string","pattern":"^[-+]?[0-9]+(?:\\.[0-9]+)?$","minLength":5,"maxLength":5}},"required":["city"],"additionalProperties":false}}},"required":["workspace_id","home"],"additionalProperties":false}`},
}

func TestSchemaTags(t *testing.T) {
	for _, tc := range tagCases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got := CodecFor(reflect.TypeOf(tc.v)).Schema()
			is.Equal(string(got), tc.want)
		})
	}
}
