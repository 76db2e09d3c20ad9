package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/schema"
)

// The hostile app: one tool whose echo action takes a field of every kind
// the decoder distinguishes, served flat (hostile_echo, hostile_ping,
// hostile_boom) or grouped (hostile, with "action").

type hostileAddress struct {
	City string `json:"city" validate:"required" description:"City"`
	Zip  string `json:"zip,omitempty" description:"Postal code"`
}

type HostileInput struct {
	Name   string            `json:"name" validate:"required" description:"Any text"`
	Small  int8              `json:"small,omitempty" description:"An int8"`
	Count  uint              `json:"count,omitempty" description:"A uint"`
	Big    int64             `json:"big,omitempty" description:"An int64"`
	Ratio  float64           `json:"ratio,omitempty" description:"A float64"`
	Flag   bool              `json:"flag,omitempty" description:"A bool"`
	Tags   []string          `json:"tags,omitempty" description:"Strings"`
	Addr   *hostileAddress   `json:"addr,omitempty" description:"A nested struct"`
	Labels map[string]string `json:"labels,omitempty" description:"A map"`
	When   time.Time         `json:"when,omitzero" description:"A date-time"`
}

// invariantViolated marks an echo that received something the decoder
// promises never to let through; the fuzz target looks for it.
const invariantViolated = "INVARIANT VIOLATED: "

// hostileEcho returns its input, so a test sees exactly what was decoded,
// after checking what strict decoding guarantees.
func hostileEcho(_ context.Context, in HostileInput) (HostileInput, error) {
	strs := append([]string{in.Name}, in.Tags...)
	for k, v := range in.Labels {
		strs = append(strs, k, v)
	}
	if in.Addr != nil {
		strs = append(strs, in.Addr.City, in.Addr.Zip)
	}
	for _, s := range strs {
		if !utf8.ValidString(s) {
			return in, errors.New(invariantViolated + "invalid UTF-8 reached the handler: " + strconv.Quote(s))
		}
	}
	if in.Name == "" {
		return in, errors.New(invariantViolated + "a required name reached the handler empty")
	}
	if in.Addr != nil && in.Addr.City == "" {
		return in, errors.New(invariantViolated + "a required addr.city reached the handler empty")
	}
	return in, nil
}

// boomMessage is what the boom action panics with: a file path, a Go type
// and a wrapped error, none of which may reach a client.
//
//lint:ignore ST1012 it is a panic value, not an error a caller checks
var boomMessage = fmt.Errorf("open /srv/hostile/internal/db/conn.go:42: *db.Conn: %w", os.ErrClosed)

func hostileApp(exp vurb.Exposition, opts ...vurb.Option) *vurb.App {
	base := []vurb.Option{vurb.WithName("hostile"), vurb.WithExposition(exp), vurb.WithLogger(slog.New(slog.DiscardHandler))}
	f := vurb.New(append(base, opts...)...)
	h := f.Tool("hostile").Describe("A target for hostile input.")
	vurb.Query(h, "echo", hostileEcho).Describe("Echo the decoded input")
	vurb.Query(h, "ping", ok[noInput]("pong")).Describe("Answer pong")
	vurb.Mutation(h, "boom", func(context.Context, noInput) (string, error) { panic(boomMessage) }).Describe("Panic")
	return f
}

const (
	hostileAccepted = "name, small, count, big, ratio, flag, tags, addr, labels, when"
	hostileActions  = "echo, ping, boom"
	flatEcho        = "hostile_echo"
	groupedTool     = "hostile"
)

// echoErr and groupErr are the texts of refused arguments: after the
// action is known, and (grouped) before.
func echoErr(msg string) string  { return "[hostile_echo] invalid arguments: " + msg }
func groupErr(msg string) string { return "[hostile] invalid arguments: " + msg }

// outcomeKind is what a hostile call must get.
type outcomeKind int

const (
	toolError     outcomeKind = iota // a result with isError and exactly want
	protocolError                    // a JSON-RPC error, InvalidParams, message exactly want
	accepted                         // a successful result whose text is exactly want
)

type hostileCase struct {
	name string
	exp  vurb.Exposition
	tool string
	args string // the arguments' bytes exactly as sent
	// absent sends no arguments at all (params.arguments omitted).
	absent bool
	kind   outcomeKind
	want   string
	// maxLen > 0 makes want a prefix and bounds the text's length: for
	// inputs with more problems than a reply should list.
	maxLen int
	// inProcess, when set, says why the case goes through App.Call on the
	// same app instead of the client (mostly: the go-sdk client cannot send
	// args).
	inProcess string
	// skip is a known bug ("BUG: ..."), listed in the note.
	skip string
}

// The go-sdk client marshals CallToolParams with encoding/json, whose
// json.RawMessage.MarshalJSON compacts (and so validates) the bytes: it
// refuses invalid JSON and nesting deeper than 10,000 levels before
// anything is sent. Invalid UTF-8 is not checked there and goes out raw.
const (
	clientRefusesInvalidJSON = "the go-sdk client refuses to marshal invalid JSON in Arguments"
	clientRefusesDepth       = "the go-sdk client's encoding/json refuses nesting deeper than 10,000 levels"
)

// nested wraps leaf in depth arrays.
func nested(depth int, leaf string) string {
	return strings.Repeat("[", depth) + leaf + strings.Repeat("]", depth)
}

// argsOfSize returns {"name":"xxx..."} of exactly n bytes.
func argsOfSize(n int) string {
	const frame = `{"name":""}`
	return `{"name":"` + strings.Repeat("x", n-len(frame)) + `"}`
}

// hostileCases is the catalogue. Every case is followed, on the same
// session, by a normal call that must still succeed.
func hostileCases() []hostileCase {
	F, G := vurb.Flat, vurb.Grouped
	tooLarge := func(n int) string {
		return fmt.Sprintf("arguments are too large: %d bytes, the limit is %d", n, schema.DefaultMaxBytes)
	}
	tooDeep := fmt.Sprintf("arguments are nested too deeply: more than %d levels", schema.DefaultMaxDepth)
	huge := strings.Repeat("x", 10<<20)
	tenMB := `{"name":"` + huge + `"}`
	tenMBGrouped := `{"action":"echo","name":"` + huge + `"}`
	million := `{"name":"a","tags":[` + strings.Repeat(`"x",`, 999_999) + `"x"]}`
	longKey := strings.Repeat("k", 100<<10)
	longKeyEcho := strings.Repeat("k", 64) + "…"
	longName := strings.Repeat("t", 100_000)
	digits := strings.Repeat("9", 100_000)
	bad1MB := `{"name":"a","tags":[` + strings.Repeat(`1,`, 500_000) + `1]}`
	var first20BadTags string // schema.DefaultMaxIssues are listed, then a count
	for i := range 20 {
		first20BadTags += fmt.Sprintf("tags[%d]: expected string, got number; ", i)
	}
	unknown12 := `{"name":"a"`
	for i := range 12 {
		unknown12 += fmt.Sprintf(`,"u%d":%d`, i, i)
	}
	unknown12 += "}"
	overBy1 := argsOfSize(schema.DefaultMaxBytes + 1)

	return []hostileCase{
		// A valid call, so the catalogue proves the app answers at all.
		{name: "valid/every field", exp: F, tool: flatEcho,
			args: `{"name":"n","small":-128,"count":18446744073709551615,"big":-9223372036854775808,"ratio":1.5e300,"flag":true,` +
				`"tags":["a",""],"addr":{"city":"c"},"labels":{"k":"v"},"when":"2024-01-02T15:04:05Z"}`,
			kind: accepted,
			want: `{"name":"n","small":-128,"count":18446744073709551615,"big":-9223372036854775808,"ratio":1.5e+300,"flag":true,` +
				`"tags":["a",""],"addr":{"city":"c"},"labels":{"k":"v"},"when":"2024-01-02T15:04:05Z"}`},

		// Arguments that are not an object.
		{name: "not object/null", exp: F, tool: flatEcho, args: `null`, want: echoErr("arguments must be a JSON object, got null")},
		{name: "not object/array", exp: F, tool: flatEcho, args: `[{"name":"a"}]`, want: echoErr("arguments must be a JSON object, got array")},
		{name: "not object/string", exp: F, tool: flatEcho, args: `"{\"name\":\"a\"}"`, want: echoErr("arguments must be a JSON object, got string")},
		{name: "not object/number", exp: F, tool: flatEcho, args: `42`, want: echoErr("arguments must be a JSON object, got number")},
		{name: "not object/boolean", exp: F, tool: flatEcho, args: `true`, want: echoErr("arguments must be a JSON object, got boolean")},
		{name: "not object/grouped array", exp: G, tool: groupedTool, args: `[{"action":"echo"}]`, want: groupErr("arguments must be a JSON object, got array")},
		{name: "not object/grouped null", exp: G, tool: groupedTool, args: `null`, want: groupErr("arguments must be a JSON object, got null")},
		{name: "not object/grouped number", exp: G, tool: groupedTool, args: `-1.5e3`, want: groupErr("arguments must be a JSON object, got number")},
		{name: "absent/flat", exp: F, tool: flatEcho, absent: true, want: echoErr("name: is required")},
		{name: "absent/grouped", exp: G, tool: groupedTool, absent: true, want: "action is required. Available: " + hostileActions},

		// Wrong JSON kinds, for every kind and every Go type.
		{name: "kind/string got number", exp: F, tool: flatEcho, args: `{"name":1}`, want: echoErr("name: expected string, got number")},
		{name: "kind/string got boolean", exp: F, tool: flatEcho, args: `{"name":false}`, want: echoErr("name: expected string, got boolean")},
		{name: "kind/string got object", exp: F, tool: flatEcho, args: `{"name":{"x":"a"}}`, want: echoErr("name: expected string, got object")},
		{name: "kind/string got array", exp: F, tool: flatEcho, args: `{"name":["a"]}`, want: echoErr("name: expected string, got array")},
		{name: "kind/required null is absent", exp: F, tool: flatEcho, args: `{"name":null}`, want: echoErr("name: is required")},
		{name: "kind/required empty", exp: F, tool: flatEcho, args: `{"name":""}`, want: echoErr("name: must not be empty")},
		{name: "kind/int8 got string", exp: F, tool: flatEcho, args: `{"name":"a","small":"1"}`, want: echoErr("small: expected integer, got string")},
		{name: "kind/uint got boolean", exp: F, tool: flatEcho, args: `{"name":"a","count":true}`, want: echoErr("count: expected integer, got boolean")},
		{name: "kind/int64 got array", exp: F, tool: flatEcho, args: `{"name":"a","big":[1]}`, want: echoErr("big: expected integer, got array")},
		{name: "kind/float64 got object", exp: F, tool: flatEcho, args: `{"name":"a","ratio":{}}`, want: echoErr("ratio: expected number, got object")},
		{name: "kind/bool got string", exp: F, tool: flatEcho, args: `{"name":"a","flag":"true"}`, want: echoErr("flag: expected boolean, got string")},
		{name: "kind/bool got number", exp: F, tool: flatEcho, args: `{"name":"a","flag":1}`, want: echoErr("flag: expected boolean, got number")},
		{name: "kind/slice got string", exp: F, tool: flatEcho, args: `{"name":"a","tags":"a,b"}`, want: echoErr("tags: expected array, got string")},
		{name: "kind/slice got object", exp: F, tool: flatEcho, args: `{"name":"a","tags":{"0":"a"}}`, want: echoErr("tags: expected array, got object")},
		{name: "kind/slice elements", exp: F, tool: flatEcho, args: `{"name":"a","tags":["ok",1,true,null,{},[]]}`,
			want: echoErr("tags[1]: expected string, got number; tags[2]: expected string, got boolean; tags[3]: expected string, got null; " +
				"tags[4]: expected string, got object; tags[5]: expected string, got array")},
		{name: "kind/struct got array", exp: F, tool: flatEcho, args: `{"name":"a","addr":[]}`, want: echoErr("addr: expected object, got array")},
		{name: "kind/struct got string", exp: F, tool: flatEcho, args: `{"name":"a","addr":"Paris"}`, want: echoErr("addr: expected object, got string")},
		{name: "kind/struct missing required", exp: F, tool: flatEcho, args: `{"name":"a","addr":{}}`, want: echoErr("addr.city: is required")},
		{name: "kind/map got array", exp: F, tool: flatEcho, args: `{"name":"a","labels":[]}`, want: echoErr("labels: expected object, got array")},
		{name: "kind/map values", exp: F, tool: flatEcho, args: `{"name":"a","labels":{"k":1,"j":null,"i":{}}}`,
			want: echoErr("labels[k]: expected string, got number; labels[j]: expected string, got null; labels[i]: expected string, got object")},
		{name: "kind/time got number", exp: F, tool: flatEcho, args: `{"name":"a","when":1700000000}`, want: echoErr("when: expected string, got number")},
		{name: "kind/time not RFC 3339", exp: F, tool: flatEcho, args: `{"name":"a","when":"yesterday"}`,
			want: echoErr("when: must be a date-time in RFC 3339 format, like 2024-01-02T15:04:05Z")},
		{name: "kind/time impossible date", exp: F, tool: flatEcho, args: `{"name":"a","when":"2024-02-30T00:00:00Z"}`,
			want: echoErr("when: must be a date-time in RFC 3339 format, like 2024-01-02T15:04:05Z")},
		{name: "kind/all problems at once", exp: F, tool: flatEcho, args: `{"name":7,"small":"x","flag":0,"addr":[],"when":true}`,
			want: echoErr("name: expected string, got number; small: expected integer, got string; flag: expected boolean, got number; " +
				"addr: expected object, got array; when: expected string, got boolean")},

		// Numbers that do not fit.
		{name: "range/int8 over", exp: F, tool: flatEcho, args: `{"name":"a","small":128}`, want: echoErr("small: 128 is out of range for int8 (-128 to 127)")},
		{name: "range/int8 under", exp: F, tool: flatEcho, args: `{"name":"a","small":-129}`, want: echoErr("small: -129 is out of range for int8 (-128 to 127)")},
		{name: "range/uint negative", exp: F, tool: flatEcho, args: `{"name":"a","count":-1}`,
			want: echoErr("count: -1 is out of range for uint (0 to 18446744073709551615)")},
		{name: "range/uint minus zero", exp: F, tool: flatEcho, args: `{"name":"a","count":-0}`, kind: accepted,
			want: `{"name":"a"}`}, // -0 is 0, as JSON Schema reads it
		{name: "range/uint over", exp: F, tool: flatEcho, args: `{"name":"a","count":18446744073709551616}`,
			want: echoErr("count: 18446744073709551616 is out of range for uint (0 to 18446744073709551615)")},
		{name: "range/int64 over", exp: F, tool: flatEcho, args: `{"name":"a","big":9223372036854775808}`,
			want: echoErr("big: 9223372036854775808 is out of range for int64 (-9223372036854775808 to 9223372036854775807)")},
		{name: "range/int64 under", exp: F, tool: flatEcho, args: `{"name":"a","big":-9223372036854775809}`,
			want: echoErr("big: -9223372036854775809 is out of range for int64 (-9223372036854775808 to 9223372036854775807)")},
		{name: "range/100000 digits", exp: F, tool: flatEcho, args: `{"name":"a","big":` + digits + `}`,
			want: echoErr("big: " + digits[:64] + "… is out of range for int64 (-9223372036854775808 to 9223372036854775807)")},
		{name: "range/float64 over", exp: F, tool: flatEcho, args: `{"name":"a","ratio":1e400}`, want: echoErr("ratio: 1e400 is out of range for float64")},
		{name: "float for int/int8 1.0", exp: F, tool: flatEcho, args: `{"name":"a","small":1.0}`, kind: accepted, want: `{"name":"a","small":1}`},
		{name: "float for int/uint 1.5", exp: F, tool: flatEcho, args: `{"name":"a","count":1.5}`, want: echoErr("count: must be an integer, got 1.5")},
		{name: "float for int/int64 1e3", exp: F, tool: flatEcho, args: `{"name":"a","big":1e3}`, kind: accepted, want: `{"name":"a","big":1000}`},

		// NaN and infinities.
		{name: "nan/string NaN", exp: F, tool: flatEcho, args: `{"name":"a","ratio":"NaN"}`, want: echoErr("ratio: expected number, got string")},
		{name: "nan/string Infinity", exp: F, tool: flatEcho, args: `{"name":"a","ratio":"-Infinity"}`, want: echoErr("ratio: expected number, got string")},
		{name: "nan/string NaN for int", exp: F, tool: flatEcho, args: `{"name":"a","big":"NaN"}`, want: echoErr("big: expected integer, got string")},
		{name: "nan/bare NaN", exp: F, tool: flatEcho, args: `{"name":"a","ratio":NaN}`, inProcess: clientRefusesInvalidJSON,
			want: echoErr("arguments are not valid JSON: invalid character 'N' at offset 20")},
		{name: "nan/bare -Infinity", exp: F, tool: flatEcho, args: `{"name":"a","ratio":-Infinity}`, inProcess: clientRefusesInvalidJSON,
			want: echoErr("arguments are not valid JSON: malformed number at offset 21")},

		// Invalid UTF-8 (the client sends these bytes raw).
		{name: "utf8/value", exp: F, tool: flatEcho, args: "{\"name\":\"a\xffb\"}", want: echoErr("name: invalid UTF-8")},
		{name: "utf8/overlong", exp: F, tool: flatEcho, args: "{\"name\":\"\xc0\xaf\"}", want: echoErr("name: invalid UTF-8")},
		{name: "utf8/encoded surrogate", exp: F, tool: flatEcho, args: "{\"name\":\"\xed\xa0\x80\"}", want: echoErr("name: invalid UTF-8")},
		{name: "utf8/truncated sequence", exp: F, tool: flatEcho, args: "{\"name\":\"\xe2\x82\"}", want: echoErr("name: invalid UTF-8")},
		{name: "utf8/field name", exp: F, tool: flatEcho, args: "{\"\xfe\":1,\"name\":\"a\"}", want: echoErr("invalid UTF-8 in a field name")},
		{name: "utf8/map key", exp: F, tool: flatEcho, args: "{\"name\":\"a\",\"labels\":{\"\xff\":\"v\"}}", want: echoErr("labels: invalid UTF-8 in a field name")},
		{name: "utf8/slice element", exp: F, tool: flatEcho, args: "{\"name\":\"a\",\"tags\":[\"ok\",\"\xff\"]}", want: echoErr("tags[1]: invalid UTF-8")},
		{name: "utf8/time", exp: F, tool: flatEcho, args: "{\"name\":\"a\",\"when\":\"2024-01-02T15:04:05Z\xff\"}", want: echoErr("when: invalid UTF-8")},
		{name: "utf8/lone surrogate escape", exp: F, tool: flatEcho, args: `{"name":"\ud800"}`, want: echoErr("name: invalid UTF-8")},

		// NUL bytes.
		{name: "nul/raw in a string", exp: F, tool: flatEcho, args: "{\"name\":\"a\x00\"}", inProcess: clientRefusesInvalidJSON,
			want: echoErr("arguments are not valid JSON: control character in a string (escape it) at offset 10")},
		{name: "nul/raw in a key", exp: F, tool: flatEcho, args: "{\"na\x00me\":\"a\"}", inProcess: clientRefusesInvalidJSON,
			want: echoErr("arguments are not valid JSON: control character in a string (escape it) at offset 4")},
		// An escaped NUL is valid JSON and a valid Go string: it reaches the
		// handler verbatim, never truncated.
		{name: "nul/escaped in a value is data", exp: F, tool: flatEcho, args: `{"name":"a\u0000b"}`, kind: accepted, want: `{"name":"a\u0000b"}`},
		{name: "nul/escaped in a key", exp: F, tool: flatEcho, args: `{"na\u0000me":"a"}`,
			want: echoErr(`unknown field "na\x00me" (did you mean "name"?); accepted: ` + hostileAccepted + "; name: is required")},

		// Duplicate keys: refused wherever they are, however spelled.
		{name: "dup/top level", exp: F, tool: flatEcho, args: `{"name":"a","name":"b"}`, want: echoErr(`duplicate field "name"`)},
		{name: "dup/escaped spelling", exp: F, tool: flatEcho, args: `{"name":"a","n\u0061me":"b"}`, want: echoErr(`duplicate field "name"`)},
		// The first value (null, so absent) is the one kept; the second is refused.
		{name: "dup/null first", exp: F, tool: flatEcho, args: `{"name":null,"name":"b"}`, want: echoErr(`duplicate field "name"; name: is required`)},
		{name: "dup/nested struct", exp: F, tool: flatEcho, args: `{"name":"a","addr":{"city":"x","city":"y"}}`, want: echoErr(`addr: duplicate field "city"`)},
		{name: "dup/map key", exp: F, tool: flatEcho, args: `{"name":"a","labels":{"k":"v","\u006b":"w"}}`, want: echoErr(`labels: duplicate field "k"`)},
		{name: "dup/unknown key listed once", exp: F, tool: flatEcho, args: `{"name":"a","x":1,"x":2}`,
			want: echoErr(`unknown field "x"; accepted: ` + hostileAccepted)},
		{name: "dup/grouped discriminator", exp: G, tool: groupedTool, args: `{"action":"ping","action":"echo","name":"a"}`, want: groupErr(`duplicate field "action"`)},
		{name: "dup/grouped escaped discriminator", exp: G, tool: groupedTool, args: `{"action":"ping","\u0061ction":"echo","name":"a"}`,
			want: groupErr(`duplicate field "action"`)},

		// Prototype-pollution keys: unknown fields of a struct, plain data in a map.
		{name: "proto/__proto__", exp: F, tool: flatEcho, args: `{"name":"a","__proto__":{"admin":true}}`,
			want: echoErr(`unknown field "__proto__"; accepted: ` + hostileAccepted)},
		{name: "proto/constructor.prototype", exp: F, tool: flatEcho, args: `{"name":"a","constructor":{"prototype":{"admin":true}}}`,
			want: echoErr(`unknown field "constructor"; accepted: ` + hostileAccepted)},
		{name: "proto/nested", exp: F, tool: flatEcho, args: `{"name":"a","addr":{"city":"x","__proto__":{}}}`,
			want: echoErr(`addr: unknown field "__proto__"; accepted: city, zip`)},
		{name: "proto/map keys are data", exp: F, tool: flatEcho, args: `{"name":"a","labels":{"__proto__":"x","constructor":"y"}}`,
			kind: accepted, want: `{"name":"a","labels":{"__proto__":"x","constructor":"y"}}`},

		// Unknown fields.
		{name: "unknown/typo", exp: F, tool: flatEcho, args: `{"name":"a","flga":true}`,
			want: echoErr(`unknown field "flga" (did you mean "flag"?); accepted: ` + hostileAccepted)},
		{name: "unknown/case variant", exp: F, tool: flatEcho, args: `{"Name":"a"}`,
			want: echoErr(`unknown field "Name" (did you mean "name"?); accepted: ` + hostileAccepted + "; name: is required")},
		{name: "unknown/twelve", exp: F, tool: flatEcho, args: unknown12,
			want: echoErr(`unknown fields "u0", "u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8", "u9" and 2 more; accepted: ` + hostileAccepted)},
		{name: "unknown/100 KB field name", exp: F, tool: flatEcho, args: `{"name":"a","` + longKey + `":1}`,
			want: echoErr(`unknown field "` + longKeyEcho + `"; accepted: ` + hostileAccepted)},
		{name: "unknown/100 KB map key is data", exp: F, tool: flatEcho, args: `{"name":"a","labels":{"` + longKey + `":1}}`,
			want: echoErr("labels[" + longKeyEcho + "]: expected string, got number")},

		// The discriminator.
		{name: "disc/missing", exp: G, tool: groupedTool, args: `{"name":"a"}`, want: "action is required. Available: " + hostileActions},
		{name: "disc/only nested", exp: G, tool: groupedTool, args: `{"addr":{"action":"echo"}}`, want: "action is required. Available: " + hostileActions},
		{name: "disc/number", exp: G, tool: groupedTool, args: `{"action":1}`, want: "action must be a string, got number. Available: " + hostileActions},
		{name: "disc/null", exp: G, tool: groupedTool, args: `{"action":null}`, want: "action must be a string, got null. Available: " + hostileActions},
		{name: "disc/boolean", exp: G, tool: groupedTool, args: `{"action":true}`, want: "action must be a string, got boolean. Available: " + hostileActions},
		{name: "disc/array", exp: G, tool: groupedTool, args: `{"action":["echo"]}`, want: "action must be a string, got array. Available: " + hostileActions},
		{name: "disc/object", exp: G, tool: groupedTool, args: `{"action":{"echo":1}}`, want: "action must be a string, got object. Available: " + hostileActions},
		{name: "disc/unknown", exp: G, tool: groupedTool, args: `{"action":"delete"}`, want: `Unknown action "delete". Available: ` + hostileActions},
		{name: "disc/case variant", exp: G, tool: groupedTool, args: `{"action":"ECHO","name":"a"}`, want: `Unknown action "ECHO". Available: ` + hostileActions + ` (did you mean "echo"?)`},
		{name: "disc/100 KB value", exp: G, tool: groupedTool, args: `{"action":"` + longKey + `"}`,
			want: `Unknown action "` + longKeyEcho + `". Available: ` + hostileActions},
		{name: "disc/invalid UTF-8 value", exp: G, tool: groupedTool, args: "{\"action\":\"ech\xff\"}", want: "Unknown action \"ech\ufffd\". Available: " + hostileActions},
		{name: "disc/escaped spelling is accepted", exp: G, tool: groupedTool, args: `{"action":"p\u0069ng"}`, kind: accepted, want: "pong"},
		{name: "disc/field error after dispatch", exp: G, tool: groupedTool, args: `{"action":"echo","name":"a","small":1000}`,
			want: "[hostile action=echo] invalid arguments: small: 1000 is out of range for int8 (-128 to 127)"},
		{name: "disc/other action's field", exp: G, tool: groupedTool, args: `{"action":"ping","name":"a"}`,
			want: `[hostile action=ping] invalid arguments: unknown field "name"; no fields are accepted`},
		{name: "disc/injected into a flat tool", exp: F, tool: flatEcho, args: `{"action":"echo","name":"a"}`,
			want: echoErr(`unknown field "action"; accepted: ` + hostileAccepted)},

		// Sizes and depth.
		{name: "size/10 MB string", exp: F, tool: flatEcho, args: tenMB, want: echoErr(tooLarge(len(tenMB)))},
		{name: "size/10 MB string grouped", exp: G, tool: groupedTool, args: tenMBGrouped, want: groupErr(tooLarge(len(tenMBGrouped)))},
		{name: "size/1,000,000 items", exp: F, tool: flatEcho, args: million, want: echoErr(tooLarge(len(million)))},
		{name: "size/one byte over the limit", exp: F, tool: flatEcho, args: overBy1, want: echoErr(tooLarge(len(overBy1)))},
		{name: "size/at the limit", exp: F, tool: flatEcho, args: argsOfSize(schema.DefaultMaxBytes), kind: accepted,
			want: `{"name":"` + strings.Repeat("x", schema.DefaultMaxBytes-len(`{"name":""}`)) + `"}`},
		{name: "size/1 MB of bad elements", exp: F, tool: flatEcho, args: bad1MB, want: echoErr(first20BadTags + "and 499981 more problems")},
		{name: "depth/64 levels is the limit", exp: F, tool: flatEcho, args: `{"name":"a","tags":` + nested(63, `"x"`) + `}`,
			want: echoErr("tags[0]: expected string, got array")},
		{name: "depth/65 levels", exp: F, tool: flatEcho, args: `{"name":"a","tags":` + nested(64, "") + `}`, want: echoErr(tooDeep)},
		{name: "depth/500 levels", exp: F, tool: flatEcho, args: `{"name":"a","labels":` + strings.Repeat(`{"k":`, 500) + `"v"` + strings.Repeat(`}`, 500) + `}`,
			want: echoErr(tooDeep)},
		{name: "depth/500 levels grouped", exp: G, tool: groupedTool, args: `{"action":"echo","tags":` + nested(500, "") + `}`, want: groupErr(tooDeep)},
		{name: "depth/2,000 levels", exp: F, tool: flatEcho, args: `{"name":"a","tags":` + nested(2000, "") + `}`, want: echoErr(tooDeep),
			skip: "BUG: over 1,000 levels the go-sdk's message decoder fails and the server closes the whole session (no reply, next call EOF)"},
		{name: "depth/10,000 levels", exp: F, tool: flatEcho, args: `{"name":"a","tags":` + nested(10_000, "") + `}`, inProcess: clientRefusesDepth,
			want: echoErr(tooDeep)},
		{name: "depth/10,000 levels grouped", exp: G, tool: groupedTool, args: `{"action":"echo","tags":` + nested(10_000, "") + `}`,
			inProcess: clientRefusesDepth, want: groupErr(tooDeep)},

		// Malformed JSON (only App.Call can carry it).
		{name: "json/trailing data", exp: F, tool: flatEcho, args: `{"name":"a"} {"name":"b"}`, inProcess: clientRefusesInvalidJSON,
			want: echoErr("arguments are not valid JSON: unexpected data after the top-level value at offset 13")},
		{name: "json/truncated", exp: F, tool: flatEcho, args: `{"name":"a"`, inProcess: clientRefusesInvalidJSON,
			want: echoErr("arguments are not valid JSON: unexpected end of input at offset 11")},
		{name: "json/trailing comma", exp: F, tool: flatEcho, args: `{"name":"a",}`, inProcess: clientRefusesInvalidJSON,
			want: echoErr("arguments are not valid JSON: invalid character '}' at offset 12")},
		{name: "json/byte order mark", exp: F, tool: flatEcho, args: "\xef\xbb\xbf{\"name\":\"a\"}", inProcess: clientRefusesInvalidJSON,
			want: echoErr("arguments are not valid JSON: invalid character byte 0xef at offset 0")},
		{name: "json/grouped truncated", exp: G, tool: groupedTool, args: `{"action":"echo"`, inProcess: clientRefusesInvalidJSON,
			want: groupErr("arguments are not valid JSON: unexpected end of input at offset 16")},

		// Tool names: protocol errors (the MCP spec: unknown tool is -32602).
		{name: "tool/empty", exp: F, tool: "", args: `{}`, kind: protocolError, want: `unknown tool ""`},
		{name: "tool/100,000 characters", exp: F, tool: longName, args: `{}`, kind: protocolError, want: `unknown tool "` + longName[:128] + `…"`},
		{name: "tool/100,000 characters in-process", exp: F, tool: longName, args: `{}`, kind: protocolError, want: `unknown tool "` + longName[:128] + `…"`,
			inProcess: "App.Call's own unknown-tool error, without the go-sdk server in front"},
		{name: "tool/unknown", exp: F, tool: "hostile_delete", args: `{}`, kind: protocolError, want: `unknown tool "hostile_delete"`},
		{name: "tool/case variant", exp: F, tool: "HOSTILE_ECHO", args: `{"name":"a"}`, kind: protocolError, want: `unknown tool "HOSTILE_ECHO"`},
		{name: "tool/NUL in the name", exp: F, tool: "hostile_echo\x00", args: `{"name":"a"}`, kind: protocolError, want: `unknown tool "hostile_echo\x00"`},
		{name: "tool/grouped name in flat", exp: F, tool: groupedTool, args: `{"action":"echo","name":"a"}`, kind: protocolError, want: `unknown tool "hostile"`},
		{name: "tool/flat name in grouped", exp: G, tool: flatEcho, args: `{"name":"a"}`, kind: protocolError, want: `unknown tool "hostile_echo"`},
	}
}

// leakPattern matches what no error text may show a client: file paths,
// stacks, Go package-qualified type names, encoding/json's own wording.
// (Range errors name a number's Go kind, "int8", with its bounds; that is
// the field's contract, not a leak.)
var leakPattern = regexp.MustCompile(`\.go\b|goroutine|runtime\.|vurb_test|github\.com/|/srv/|\b[a-z][a-z0-9_]*\.[A-Z]\w*|\bjson: |Go (value|struct)|reflect\.|panic`)

// leaks returns what text leaks, or "".
func leaks(text string) string {
	return leakPattern.FindString(text)
}

// hostileSessions serves each exposition of the hostile app to one client
// session for a whole test, so that a case which broke a session would fail
// every case after it too.
type hostileSessions struct {
	apps     map[vurb.Exposition]*vurb.App
	sessions map[vurb.Exposition]*mcp.ClientSession
}

func newHostileSessions(t *testing.T) *hostileSessions {
	h := &hostileSessions{apps: map[vurb.Exposition]*vurb.App{}, sessions: map[vurb.Exposition]*mcp.ClientSession{}}
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		h.apps[exp] = hostileApp(exp)
		h.sessions[exp] = connect(t, h.apps[exp], nil)
	}
	return h
}

// send makes the case's call, over the client session or in-process.
func (h *hostileSessions) send(tc hostileCase) (*mcp.CallToolResult, error) {
	var args json.RawMessage
	if !tc.absent {
		args = json.RawMessage(tc.args)
	}
	if tc.inProcess != "" {
		return h.apps[tc.exp].Call(context.Background(), tc.tool, args)
	}
	params := &mcp.CallToolParams{Name: tc.tool}
	if !tc.absent {
		params.Arguments = args
	}
	return h.sessions[tc.exp].CallTool(context.Background(), params)
}

// stillServes makes a normal call on the exposition's session.
func (h *hostileSessions) stillServes(t *testing.T, exp vurb.Exposition) {
	t.Helper()
	name, args := flatEcho, `{"name":"still alive"}`
	if exp == vurb.Grouped {
		name, args = groupedTool, `{"action":"echo","name":"still alive"}`
	}
	res, err := callRaw(t, h.sessions[exp], name, args)
	if err != nil {
		t.Fatalf("the session no longer serves: %v", err)
	}
	if got := text(res); res.IsError || got != `{"name":"still alive"}` {
		t.Fatalf("the follow-up call got %q (isError %v)", got, res.IsError)
	}
}

// checkOutcome asserts that res and err are what tc wants, and returns the
// text the client saw.
func checkOutcome(t *testing.T, tc hostileCase, res *mcp.CallToolResult, err error) string {
	t.Helper()
	if tc.kind == protocolError {
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) {
			t.Fatalf("want a JSON-RPC error, got result %v, error %v", res, err)
		}
		if rpcErr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("code %d, want %d (invalid params)", rpcErr.Code, jsonrpc.CodeInvalidParams)
		}
		if rpcErr.Message != tc.want {
			t.Errorf("message\n got %.300q\nwant %.300q", rpcErr.Message, tc.want)
		}
		return rpcErr.Message
	}
	if err != nil {
		t.Fatalf("want a result, got error %v", err)
	}
	got := text(res)
	if res.IsError != (tc.kind == toolError) {
		t.Errorf("isError %v, want %v (text %.300q)", res.IsError, tc.kind == toolError, got)
	}
	if tc.maxLen > 0 {
		if !strings.HasPrefix(got, tc.want) || len(got) > tc.maxLen {
			t.Errorf("want at most %d bytes starting %.200q, got %d bytes: %.300q", tc.maxLen, tc.want, len(got), got)
		}
		return got
	}
	if got != tc.want {
		t.Errorf("text\n got %.300q\nwant %.300q", got, tc.want)
	}
	return got
}

func TestHostileInputCatalogue(t *testing.T) {
	cases := hostileCases()
	if len(cases) < 40 {
		t.Fatalf("the catalogue has %d cases; the issue asks for at least 40", len(cases))
	}
	h := newHostileSessions(t)
	seen := map[string]bool{}
	for _, tc := range cases {
		if seen[tc.name] {
			t.Fatalf("two cases named %q", tc.name)
		}
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip != "" {
				t.Skip(tc.skip)
			}
			res, err := h.send(tc)
			got := checkOutcome(t, tc, res, err)
			if tc.kind != accepted {
				if l := leaks(got); l != "" {
					t.Errorf("the error text leaks %q: %.300q", l, got)
				}
				if len(got) > 2048 && tc.maxLen == 0 {
					t.Errorf("the error text is %d bytes: hostile input must not be echoed whole", len(got))
				}
			}
			h.stillServes(t, tc.exp)
		})
	}
}

// syncBuffer is a bytes.Buffer that a logger may write from any goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
