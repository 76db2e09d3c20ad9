package schema

import (
	"reflect"
	"testing"

	"github.com/matryer/is"
)

// Eligible types: every supported kind, behind a pointer or not, under every
// supported rule.
type (
	fastLabel string
	fastLevel int8

	fastStrings struct {
		Name   string     `json:"name" validate:"required,min=2,max=5"`
		Code   string     `json:"code,omitempty" validate:"omitempty,len=3"`
		Kind   string     `json:"kind,omitempty" validate:"omitempty,oneof=red green 'light blue' a0x2Cb"`
		Exact  *string    `json:"exact,omitempty" validate:"omitempty,eq=ok"`
		Not    *string    `json:"not,omitempty" validate:"omitempty,ne=bad"`
		Nick   *string    `json:"nick" validate:"required,gt=1,lt=4"`
		Comma  string     `json:"comma,omitempty" validate:"omitempty,eq=a0x2Cb"`
		Late   string     `json:"late,omitempty" validate:"min=0,omitempty,max=3"`
		Label  *fastLabel `json:"label,omitempty" validate:"omitempty,oneof=x yy"`
		Plain  *string    `json:"plain,omitempty"`
		Free   string     `json:"free"`
		Hidden string     `json:"-"`
		//lint:ignore SA5008 a field named "-" is what this case tests
		Dash    string `json:"-," validate:"omitempty,max=1"`
		Untaged string
		//lint:ignore U1000 proves unexported fields stay out
		private int
	}
	fastInts struct {
		Limit *int       `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
		Level int8       `json:"level" validate:"gte=-128,lte=127"`
		Small int8       `json:"small,omitempty" validate:"omitempty,gt=-5,lt=5"`
		Hex   int16      `json:"hex,omitempty" validate:"omitempty,max=0x10"`
		Mid   int32      `json:"mid,omitempty" validate:"omitempty,ne=7"`
		Big   int64      `json:"big,omitempty"`
		Pick  *int       `json:"pick,omitempty" validate:"omitempty,oneof=1 2 03 -4 +5 x"`
		Floor *int64     `json:"floor,omitempty" validate:"omitempty,eq=-9223372036854775808"`
		Len   int        `json:"len,omitempty" validate:"omitempty,len=5"`
		Named *fastLevel `json:"named,omitempty" validate:"omitempty,min=-1_0,max=0o17"`
		Any   *int16     `json:"any,omitempty"`
	}
	fastUints struct {
		Count *uint   `json:"count,omitempty" validate:"omitempty,min=1"`
		Byte  uint8   `json:"byte,omitempty" validate:"omitempty,max=200"`
		Port  uint16  `json:"port,omitempty" validate:"omitempty,gt=1023,lt=65535"`
		Mask  uint32  `json:"mask,omitempty" validate:"omitempty,oneof=1 2 4 8 -1 08"`
		Huge  uint64  `json:"huge,omitempty" validate:"omitempty,ne=18446744073709551615"`
		Req   *uint64 `json:"req" validate:"required,eq=0b101"`
		Len   *uint8  `json:"len,omitempty" validate:"omitempty,len=0"`
	}
	fastFloats struct {
		Ratio *float32 `json:"ratio,omitempty" validate:"omitempty,gte=0,lte=1"`
		Temp  float64  `json:"temp,omitempty" validate:"omitempty,gt=-273.15,lt=1e3"`
		Tenth float32  `json:"tenth,omitempty" validate:"omitempty,eq=0.1"`
		NotN  float64  `json:"not_nan,omitempty" validate:"omitempty,ne=NaN"`
		IsN   *float64 `json:"is_nan,omitempty" validate:"omitempty,eq=NaN"`
		Zero  float64  `json:"zero,omitempty" validate:"omitempty,min=1"`
		Len   float32  `json:"len,omitempty" validate:"omitempty,len=2.5"`
		Inf   *float64 `json:"inf,omitempty" validate:"omitempty,lt=+Inf"`
		Plain *float64 `json:"plain,omitempty"`
	}
	fastBools struct {
		On   *bool `json:"on" validate:"required"`
		Yes  bool  `json:"yes" validate:"eq=true"`
		No   *bool `json:"no,omitempty" validate:"omitempty,ne=1"`
		T    *bool `json:"t,omitempty" validate:"omitempty,eq=T"`
		Flag bool  `json:"flag,omitempty"`
	}
	// fastSkip has fields that a grouped tool's discriminator ("action")
	// would fill through encoding/json's case-insensitive match.
	fastSkip struct {
		Action string `json:"ACTION,omitempty"`
		Name   string `json:"name" validate:"required"`
	}
	// fastMany has more fields than are searched in order: lookups go
	// through the shape's index.
	fastMany struct {
		A int    `json:"a,omitempty" validate:"omitempty,min=1"`
		B int    `json:"b,omitempty"`
		C int    `json:"c,omitempty"`
		D int    `json:"d,omitempty"`
		E int    `json:"e,omitempty"`
		F int    `json:"f,omitempty"`
		G int    `json:"g,omitempty"`
		H int    `json:"h,omitempty"`
		I int    `json:"i,omitempty"`
		J string `json:"j,omitempty" validate:"omitempty,max=2"`
	}
)

// fastCase is one eligible type, the inputs to decode into it, and the
// key DecodeSkipping skips.
type fastCase struct {
	name   string
	codec  *Codec
	skip   string
	inputs []string
}

var fastCases = []fastCase{
	{"strings", For[fastStrings](), "", []string{
		`{"name":"ab","nick":"xy"}`,
		`{"name":"ab","nick":"xy","free":""}`,
		` { "name" : "héllo" , "nick" : "日本語" } `,
		`{"name":"日本語日本","nick":"xy"}`,
		`{"name":"日本語日本語","nick":"xy"}`,
		`{"name":"a","nick":"xy"}`,
		`{"name":"","nick":"xy"}`,
		`{"name":"abcdef","nick":"xy"}`,
		`{"name":"ab","nick":"x"}`,
		`{"name":"ab","nick":"wxyz"}`,
		`{"name":"ab","nick":""}`,
		`{"name":"ab","nick":null}`,
		`{"name":"ab"}`,
		`{"name":null,"nick":"xy"}`,
		`{"name":"ab","nick":"xy","code":"abc"}`,
		`{"name":"ab","nick":"xy","code":"ab"}`,
		`{"name":"ab","nick":"xy","code":"日本語"}`,
		`{"name":"ab","nick":"xy","code":""}`,
		`{"name":"ab","nick":"xy","kind":"red"}`,
		`{"name":"ab","nick":"xy","kind":"light blue"}`,
		`{"name":"ab","nick":"xy","kind":"light"}`,
		`{"name":"ab","nick":"xy","kind":"'light"}`,
		`{"name":"ab","nick":"xy","kind":"a,b"}`,
		`{"name":"ab","nick":"xy","kind":"Red"}`,
		`{"name":"ab","nick":"xy","exact":"ok"}`,
		`{"name":"ab","nick":"xy","exact":"ko"}`,
		`{"name":"ab","nick":"xy","exact":""}`,
		`{"name":"ab","nick":"xy","exact":null}`,
		`{"name":"ab","nick":"xy","not":"bad"}`,
		`{"name":"ab","nick":"xy","not":""}`,
		`{"name":"ab","nick":"xy","comma":"a,b"}`,
		`{"name":"ab","nick":"xy","comma":"a0x2Cb"}`,
		`{"name":"ab","nick":"xy","late":""}`,
		`{"name":"ab","nick":"xy","late":"abc"}`,
		`{"name":"ab","nick":"xy","late":"abcd"}`,
		`{"name":"ab","nick":"xy","label":"yy"}`,
		`{"name":"ab","nick":"xy","label":"z"}`,
		`{"name":"ab","nick":"xy","plain":""}`,
		`{"name":"ab","nick":"xy","-":"a"}`,
		`{"name":"ab","nick":"xy","-":"ab"}`,
		`{"name":"ab","nick":"xy","Untaged":"u"}`,
		`{"name":"ab","nick":"xy","Hidden":"h"}`,
		`{"name":"ab","nick":"xy","untaged":"u"}`,
		`{"n\u0061me":"\u00e9\u00e9","nick":"\ud83d\ude00\ud83d\ude00"}`,
		`{"name":"a\"b","nick":"\\\/"}`,
		`{"name":"\b\f\n\r\t","nick":"xy"}`,
		`{"name":"a\u0000","nick":"xy"}`,
		`{"name":"\ud800","nick":"xy"}`,
		"{\"name\":\"a\xffb\",\"nick\":\"xy\"}",
		`{"name":"ab","nick":"xy","name":"cd"}`,
		`{"name":"ab","nick":"xy","Name":"cd"}`,
		`{"name":1,"nick":"xy"}`,
		`{"name":"ab","nick":"xy",}`,
		`{"name":"ab","nick":"xy"} x`,
		`{}`,
		``,
		`[]`,
	}},
	{"ints", For[fastInts](), "", []string{
		`{"level":0}`,
		`{"level":-128}`,
		`{"level":127}`,
		`{"level":128}`,
		`{"level":-129}`,
		`{"level":-0}`,
		`{"level":1.0}`,
		`{"level":1e2}`,
		`{"level":0,"limit":1}`,
		`{"level":0,"limit":100}`,
		`{"level":0,"limit":0}`,
		`{"level":0,"limit":101}`,
		`{"level":0,"limit":-1}`,
		`{"level":0,"limit":null}`,
		`{"level":0,"limit":9223372036854775807}`,
		`{"level":0,"limit":9223372036854775808}`,
		`{"level":0,"small":-4}`,
		`{"level":0,"small":-5}`,
		`{"level":0,"small":4}`,
		`{"level":0,"small":5}`,
		`{"level":0,"hex":16}`,
		`{"level":0,"hex":17}`,
		`{"level":0,"hex":-32768}`,
		`{"level":0,"hex":32768}`,
		`{"level":0,"mid":7}`,
		`{"level":0,"mid":-7}`,
		`{"level":0,"mid":2147483647}`,
		`{"level":0,"mid":2147483648}`,
		`{"level":0,"big":-9223372036854775808}`,
		`{"level":0,"big":-9223372036854775809}`,
		`{"level":0,"pick":1}`,
		`{"level":0,"pick":2}`,
		`{"level":0,"pick":3}`,
		`{"level":0,"pick":-4}`,
		`{"level":0,"pick":5}`,
		`{"level":0,"pick":0}`,
		`{"level":0,"floor":-9223372036854775808}`,
		`{"level":0,"floor":0}`,
		`{"level":0,"len":5}`,
		`{"level":0,"len":6}`,
		`{"level":0,"named":-10}`,
		`{"level":0,"named":-11}`,
		`{"level":0,"named":15}`,
		`{"level":0,"named":16}`,
		`{"level":0,"any":-1}`,
		`{"level":0,"limit":"5"}`,
		`{"level":0,"limit":true}`,
		`{}`,
	}},
	{"uints", For[fastUints](), "", []string{
		`{"req":5}`,
		`{"req":6}`,
		`{"req":0}`,
		`{"req":null}`,
		`{"req":-0}`,
		`{"req":5,"count":0}`,
		`{"req":5,"count":1}`,
		`{"req":5,"count":18446744073709551615}`,
		`{"req":5,"count":18446744073709551616}`,
		`{"req":5,"byte":200}`,
		`{"req":5,"byte":201}`,
		`{"req":5,"byte":256}`,
		`{"req":5,"port":1023}`,
		`{"req":5,"port":1024}`,
		`{"req":5,"port":65534}`,
		`{"req":5,"port":65535}`,
		`{"req":5,"port":65536}`,
		`{"req":5,"mask":8}`,
		`{"req":5,"mask":3}`,
		`{"req":5,"huge":18446744073709551615}`,
		`{"req":5,"huge":18446744073709551614}`,
		`{"req":5,"len":0}`,
		`{"req":5,"len":1}`,
		`{"req":5,"len":-1}`,
	}},
	{"floats", For[fastFloats](), "", []string{
		`{}`,
		`{"ratio":0}`,
		`{"ratio":-0}`,
		`{"ratio":1}`,
		`{"ratio":1.0000001}`,
		`{"ratio":1.00000001}`,
		`{"ratio":-1e-50}`,
		`{"ratio":1e39}`,
		`{"ratio":3.4028235e38}`,
		`{"temp":-273.15}`,
		`{"temp":-273.14}`,
		`{"temp":999.9999}`,
		`{"temp":1e3}`,
		`{"temp":1E-400}`,
		`{"temp":1e400}`,
		`{"temp":-0.0}`,
		`{"tenth":0.1}`,
		`{"tenth":0.10000000149011612}`,
		`{"tenth":0.1000001}`,
		`{"not_nan":5}`,
		`{"is_nan":5}`,
		`{"zero":-0}`,
		`{"zero":-0.0e5}`,
		`{"zero":0.5}`,
		`{"zero":1}`,
		`{"len":2.5}`,
		`{"len":2.50000001}`,
		`{"inf":1.7976931348623157e308}`,
		`{"plain":123456789012345678901234567890}`,
		`{"plain":4.9e-324}`,
		`{"plain":"1"}`,
	}},
	{"bools", For[fastBools](), "", []string{
		`{"on":true,"yes":true}`,
		`{"on":false,"yes":true}`,
		`{"on":null,"yes":true}`,
		`{"yes":true}`,
		`{"on":true,"yes":false}`,
		`{"on":true,"yes":true,"no":false}`,
		`{"on":true,"yes":true,"no":true}`,
		`{"on":true,"yes":true,"t":true}`,
		`{"on":true,"yes":true,"t":false}`,
		`{"on":true,"yes":true,"flag":true}`,
		`{"on":true,"yes":true,"flag":null}`,
		`{"on":1,"yes":true}`,
		`{"on":"true","yes":true}`,
	}},
	{"skip", For[fastSkip](), "action", []string{
		`{"name":"a"}`,
		`{"action":"list","name":"a"}`,
		`{"name":"a","action":{"deep":[1,{"x":"}"}],"s":"\"]"}}`,
		`{"name":"a","action":[1,2]}`,
		`{"name":"a","action":null}`,
		`{"name":"a","action":-1.5e3}`,
		`{"name":"a","action":true}`,
		`{"name":"a","ACTION":"x"}`,
		`{"name":"a","action":"x","action":"y"}`,
		`{"name":"a","acti\u006fn":"x"}`,
	}},
	{"skip a field name", For[fastSkip](), "name", []string{
		`{"name":"a"}`,
		`{"name":""}`,
		`{"name":5}`,
		`{"ACTION":"x"}`,
	}},
	{"skip a folded name", For[fastSkip](), "Action", []string{
		`{"name":"a","Action":"x"}`,
		`{"name":"a","Action":5}`,
		`{"name":"a"}`,
	}},
	{"many", For[fastMany](), "", []string{
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":"xy"}`,
		`{"j":"xyz"}`,
		`{"a":0,"i":-1}`,
		`{"k":1}`,
	}},
	{"defaults", For[fastDefaults](), "", []string{
		`{}`,
		`{"limit":5,"level":-3,"name":"x","on":false,"ratio":0.25,"count":9}`,
		`{"limit":7.0,"level":-1e1,"count":2e0}`,
		`{"limit":0}`,
		`{"limit":7.5}`,
		`{"count":-0}`,
		`{"level":null}`,
		`{"name":""}`,
	}},
}

// fastDefaults is an eligible type with defaults, which the fast path
// applies itself.
type fastDefaults struct {
	Limit *int     `json:"limit,omitempty" default:"20" validate:"omitempty,min=1,max=100"`
	Level int8     `json:"level,omitempty" default:"-5"`
	Name  string   `json:"name,omitempty" default:"anon" validate:"omitempty,min=2"`
	On    *bool    `json:"on,omitempty" default:"true"`
	Ratio float64  `json:"ratio,omitempty" default:"0.5"`
	Count uint16   `json:"count,omitempty" default:"1"`
	Plain *float64 `json:"plain,omitempty"`
}

// decodeBoth decodes data with the fast path allowed and with the slow path
// forced, and fails t on any difference: error text, or values.
func decodeBoth(t *testing.T, c *Codec, data []byte, opts DecodeOptions, skip string) (usedFast bool, err error) {
	t.Helper()
	fastDst := reflect.New(c.Type())
	slowDst := reflect.New(c.Type())
	usedFast, fastErr := c.decode(data, fastDst.Interface(), opts, skip, true)
	_, slowErr := c.decode(data, slowDst.Interface(), opts, skip, false)
	if errText(fastErr) != errText(slowErr) {
		t.Fatalf("%s %q: fast path says %q, slow path says %q", c.Type(), data, errText(fastErr), errText(slowErr))
	}
	if !reflect.DeepEqual(fastDst.Elem().Interface(), slowDst.Elem().Interface()) {
		t.Fatalf("%s %q: fast path decoded %+v, slow path %+v", c.Type(), data, fastDst.Elem().Interface(), slowDst.Elem().Interface())
	}
	if usedFast && fastErr != nil {
		t.Fatalf("%s %q: the fast path returned an error", c.Type(), data)
	}
	return usedFast, fastErr
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestFastMatchesSlow is the differential proof on a table: every input
// gives the same error text (or none) and the same struct on both paths,
// and every accepted input was accepted by the fast path itself, except
// where a skipped key must reach a field through encoding/json.
func TestFastMatchesSlow(t *testing.T) {
	for _, fc := range fastCases {
		t.Run(fc.name, func(t *testing.T) {
			if fc.codec.fast == nil {
				t.Fatalf("%s is not eligible for the fast path", fc.codec.Type())
			}
			fast, slow := 0, 0
			for _, in := range fc.inputs {
				usedFast, err := decodeBoth(t, fc.codec, []byte(in), DecodeOptions{}, fc.skip)
				if err == nil && !usedFast && !fc.codec.fast.folds(fc.skip) {
					t.Errorf("%q: accepted, but not by the fast path", in)
				}
				if usedFast {
					fast++
				} else {
					slow++
				}
			}
			t.Logf("%d inputs took the fast path, %d the slow path", fast, slow)
		})
	}
}

// TestFastValues pins a few decoded values down, independently of the slow
// path, so that a shared mistake could not hide.
func TestFastValues(t *testing.T) {
	is := is.New(t)
	var s fastStrings
	fast, err := For[fastStrings]().decode([]byte(`{"n\u0061me":"h\u00e9\ud83d\ude00","nick":"x\"y","kind":"light blue"}`), &s, DecodeOptions{}, "", true)
	is.NoErr(err)
	is.True(fast)
	is.Equal(s.Name, "hé😀")
	is.Equal(*s.Nick, `x"y`)
	is.Equal(s.Kind, "light blue")
	is.Equal(s.Exact, nil)

	var n fastInts
	fast, err = For[fastInts]().decode([]byte(`{"level":-128,"limit":100,"big":-9223372036854775808,"named":-10,"any":-32768}`), &n, DecodeOptions{}, "", true)
	is.NoErr(err)
	is.True(fast)
	is.Equal(n.Level, int8(-128))
	is.Equal(*n.Limit, 100)
	is.Equal(n.Big, int64(-9223372036854775808))
	is.Equal(*n.Named, fastLevel(-10))
	is.Equal(*n.Any, int16(-32768))

	var f fastFloats
	fast, err = For[fastFloats]().decode([]byte(`{"ratio":0.1,"tenth":0.1,"zero":1}`), &f, DecodeOptions{}, "", true)
	is.NoErr(err)
	is.True(fast)
	is.Equal(*f.Ratio, float32(0.1))
	is.Equal(f.Tenth, float32(0.1))

	// A decode over a used value starts from zero, as Decode promises.
	fast, err = For[fastInts]().decode([]byte(`{"level":1}`), &n, DecodeOptions{}, "", true)
	is.NoErr(err)
	is.True(fast)
	is.Equal(n, fastInts{Level: 1})
}
