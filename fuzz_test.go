package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
	"github.com/vurb-go/vurb/schema"
)

// FuzzDispatch drives App.Call, the whole in-process pipeline (route lookup,
// discriminator, strict decoding and validation, middleware, handler,
// result), with arbitrary tool names and argument bytes, against the hostile
// app in both expositions. Whatever it is fed, a call must not panic and must
// end in exactly one of: a result, or a *jsonrpc.Error for an unknown tool.
// Beyond that it checks what strict decoding promises: an accepted call had
// valid JSON within the limits, with no duplicate key at any depth, and its
// handler got exactly what encoding/json reads from the same bytes.
//
// The seed corpus is the hostile catalogue (inputs over 64 KiB cut short,
// which keeps them hostile) plus a valid call per action.
//
//	go test -run '^$' -fuzz FuzzDispatch -fuzztime 10m .
func FuzzDispatch(f *testing.F) {
	apps := [2]*vurb.App{hostileApp(vurb.Flat), hostileApp(vurb.Grouped)}
	// An observed grouped app must answer as the unobserved one does.
	observed := hostileApp(vurb.Grouped, vurb.WithObserver(func(context.Context, observe.Event) {}))
	const maxSeed = 64 << 10
	for _, tc := range hostileCases() {
		name, args := tc.tool, tc.args
		if len(name) > maxSeed {
			name = name[:maxSeed]
		}
		if len(args) > maxSeed {
			args = args[:maxSeed]
		}
		f.Add(uint8(tc.exp), name, []byte(args))
	}
	for _, seed := range []struct {
		exp        vurb.Exposition
		name, args string
	}{
		{vurb.Flat, "hostile_echo", `{"name":"a","tags":["b"],"addr":{"city":"c"},"labels":{"d":"e"},"when":"2024-01-02T15:04:05Z"}`},
		{vurb.Flat, "hostile_ping", `{}`},
		{vurb.Flat, "hostile_boom", ``},
		{vurb.Grouped, "hostile", `{"action":"echo","name":"a","small":-1,"count":2,"big":3,"ratio":0.5,"flag":true}`},
		{vurb.Grouped, "hostile", `{"action":"ping"}`},
		{vurb.Grouped, "hostile", `{"action":"boom"}`},
	} {
		f.Add(uint8(seed.exp), seed.name, []byte(seed.args))
	}

	f.Fuzz(func(t *testing.T, exp uint8, name string, args []byte) {
		e := vurb.Exposition(exp % 2)
		res, err := apps[e].Call(context.Background(), name, args)
		switch {
		case err != nil && res != nil:
			t.Fatalf("both a result and an error: %v", err)
		case err != nil:
			checkUnknownTool(t, e, name, err)
		case res == nil:
			t.Fatal("neither a result nor an error")
		default:
			checkResult(t, e, name, args, res.IsError, res.Content == nil, text(res))
		}
		if e == vurb.Grouped {
			sameAnswer(t, res, err, observed, name, args)
		}
	})
}

// wireNames are the routes of the hostile app, by exposition.
var wireNames = [2]map[string]bool{
	vurb.Flat:    {"hostile_echo": true, "hostile_ping": true, "hostile_boom": true},
	vurb.Grouped: {"hostile": true},
}

func checkUnknownTool(t *testing.T, e vurb.Exposition, name string, err error) {
	t.Helper()
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		t.Fatalf("the error is a %T, not a *jsonrpc.Error: %v", err, err)
	}
	if rpcErr.Code != jsonrpc.CodeInvalidParams || !strings.HasPrefix(rpcErr.Message, "unknown tool ") {
		t.Fatalf("unexpected protocol error %d %q", rpcErr.Code, rpcErr.Message)
	}
	if wireNames[e][name] {
		t.Fatalf("%q is a tool, yet it was refused as unknown", name)
	}
	// At most 128 bytes of the name, each escaped to at most 4 by %q.
	if len(rpcErr.Message) > len(`unknown tool ""…`)+4*128 {
		t.Fatalf("the unknown-tool message is %d bytes: the name was echoed whole", len(rpcErr.Message))
	}
}

// errorPrefix is how every tool error of the hostile app begins: the
// action's prefix, the tool's (when the action is not known yet), or a
// discriminator message.
var errorPrefix = regexp.MustCompile(`^(\[hostile(_| action=)(echo|ping|boom)\] |\[hostile\] invalid arguments: |action is required\. |action must be a string, got |Unknown action )`)

var panicReply = regexp.MustCompile(`^\[hostile(_| action=)boom\] internal error \(ref \w+\); the server has logged the details$`)

func checkResult(t *testing.T, e vurb.Exposition, name string, args []byte, isError, nilContent bool, got string) {
	t.Helper()
	if !wireNames[e][name] {
		t.Fatalf("%q is not a tool, yet it was answered: %q", name, got)
	}
	if nilContent {
		t.Fatal(`the result's content is nil: it would go out as "content": null`)
	}
	if !utf8.ValidString(got) {
		t.Fatalf("the reply is not valid UTF-8: %q", got)
	}
	if strings.Contains(got, invariantViolated) {
		t.Fatal(got)
	}
	if isError {
		if !errorPrefix.MatchString(got) {
			t.Fatalf("an error without its prefix: %.300q", got)
		}
		boom, ping := errPrefix(e, "hostile", "boom"), errPrefix(e, "hostile", "ping")
		if strings.HasPrefix(got, boom) && !strings.HasPrefix(got, boom+"invalid arguments: ") && !panicReply.MatchString(got) {
			t.Fatalf("the panic reply is %q", got)
		}
		if strings.HasPrefix(got, ping) && !strings.HasPrefix(got, ping+"invalid arguments: ") {
			t.Fatalf("ping failed: %q", got)
		}
		return
	}
	// Accepted: only ping and echo can succeed.
	if got == "pong" {
		return
	}
	if !strings.HasPrefix(got, "{") {
		t.Fatalf("an unexpected success: %.300q", got)
	}
	checkAccepted(t, args, got)
}

// checkAccepted re-reads arguments the app accepted for echo with
// encoding/json and asserts what strict decoding promises.
func checkAccepted(t *testing.T, args []byte, echoed string) {
	t.Helper()
	if len(args) > schema.DefaultMaxBytes {
		t.Fatalf("%d bytes of arguments were accepted, over the %d limit", len(args), schema.DefaultMaxBytes)
	}
	if !json.Valid(args) {
		t.Fatalf("invalid JSON was accepted: %.300q", args)
	}
	depth, dup, err := walkJSON(args)
	if err != nil {
		t.Fatalf("walking accepted arguments: %v", err)
	}
	if depth > schema.DefaultMaxDepth {
		t.Fatalf("arguments %d levels deep were accepted, over the %d limit", depth, schema.DefaultMaxDepth)
	}
	if dup != "" {
		t.Fatalf("a duplicate key %q was accepted: %.300q", dup, args)
	}
	// Every key was exact, none duplicated: encoding/json, for all its
	// leniency, must read the same value the handler got.
	// Whole numbers written as floats (7.0, 1e2, -0) are integers, as JSON
	// Schema reads them: encoding/json reads them once written as digits.
	var in HostileInput
	if err := json.Unmarshal(integralDigits(args), &in); err != nil {
		t.Fatalf("encoding/json refuses what was accepted (%v): %.300q", err, args)
	}
	want, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != echoed {
		t.Fatalf("the handler got\n%.300s\nencoding/json reads\n%.300s", echoed, want)
	}
}

// walkJSON returns the nesting depth of valid JSON data and the first
// object key that occurs twice in one object (after unescaping), if any.
func walkJSON(data []byte) (maxDepth int, dup string, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object  bool
		keys    map[string]bool
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return maxDepth, dup, nil
		}
		if err != nil {
			return 0, "", err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		if top != nil && top.object {
			if top.wantKey {
				k := tok.(string)
				if top.keys[k] && dup == "" {
					dup = k
				}
				top.keys[k] = true
				top.wantKey = false
				continue
			}
			top.wantKey = true // this token is a value; the next is a key
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{object: d == '{', keys: map[string]bool{}, wantKey: d == '{'})
			maxDepth = max(maxDepth, len(stack))
		}
	}
}

func TestWalkJSON(t *testing.T) {
	for _, tc := range []struct {
		in    string
		depth int
		dup   string
	}{
		{`{}`, 1, ""},
		{`{"a":[{"b":1,"c":{"d":[]}}]}`, 5, ""},
		{`{"a":1,"b":{"a":1},"c":[{"a":1},{"a":2}]}`, 3, ""},
		{`{"a":1,"a":2}`, 1, "a"},
		{`{"x":{"k":1,"\u006b":2}}`, 2, "k"},
		{`[[{"a":[],"a":{}}]]`, 4, "a"},
	} {
		depth, dup, err := walkJSON([]byte(tc.in))
		if err != nil || depth != tc.depth || dup != tc.dup {
			t.Errorf("walkJSON(%s) = %d, %q, %v; want %d, %q", tc.in, depth, dup, err, tc.depth, tc.dup)
		}
	}
}

// refID is the part of a panic's reply that differs between two apps.
var refID = regexp.MustCompile(`\(ref \w+\)`)

// sameAnswer fails unless app answers name and args as res and err did.
func sameAnswer(t *testing.T, res *mcp.CallToolResult, err error, app *vurb.App, name string, args []byte) {
	t.Helper()
	res2, err2 := app.Call(context.Background(), name, args)
	if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
		t.Fatalf("errors differ: %v, then %v", err, err2)
	}
	if res == nil || res2 == nil {
		return
	}
	a, b := refID.ReplaceAllString(text(res), "(ref)"), refID.ReplaceAllString(text(res2), "(ref)")
	if a != b || res.IsError != res2.IsError {
		t.Fatalf("answers differ:\n%q\n%q", a, b)
	}
}

// integralDigits rewrites every whole number in data written otherwise
// (7.0, 1e2, -0) as plain digits; data is valid JSON.
func integralDigits(data []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return data
	}
	var fix func(v any) any
	fix = func(v any) any {
		switch v := v.(type) {
		case json.Number:
			if r, ok := new(big.Rat).SetString(string(v)); ok && r.IsInt() {
				return json.Number(r.Num().String())
			}
		case []any:
			for i := range v {
				v[i] = fix(v[i])
			}
		case map[string]any:
			for k := range v {
				v[k] = fix(v[k])
			}
		}
		return v
	}
	out, err := json.Marshal(fix(v))
	if err != nil {
		return data
	}
	return out
}
