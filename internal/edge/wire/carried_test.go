package wire

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/internal/engine"
)

// carried runs Carried on a POST of body with an Mcp-Name header (none
// when name is "-"), and returns the message after and the request.
func carried(t testing.TB, body, name string) (*Message, *Message, *http.Request) {
	r, _ := http.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	if name != "-" {
		r.Header.Set("Mcp-Name", name)
	}
	m := ReadMessage(r, 1<<20)
	return m, Carried(r, m, engine.CallToolName, engine.Unwrap), r
}

func TestCarriedCallIsTheCallItCarries(t *testing.T) {
	cases := []struct {
		name, body, header string
		want               string // the name after; "" when left as it came
	}{
		{"carried", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"notes_list","arguments":{"a":1}},"_meta":{"x":1}}}`, "call_tool", "notes_list"},
		{"no header (handshake era)", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"notes_list"}}}`, "-", "notes_list"},
		{"header names another tool", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"notes_list"}}}`, "notes_list", ""},
		{"another tool", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_list","arguments":{}}}`, "notes_list", ""},
		{"another method", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"call_tool"}}`, "-", ""},
		{"arguments not an object", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"x","arguments":[1]}}}`, "call_tool", ""},
		{"a member besides", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"x","arguments":{},"more":1}}}`, "call_tool", ""},
		{"a name in other case", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"NAME":"x"}}}`, "call_tool", ""},
		{"itself", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"call_tool","arguments":{}}}}`, "call_tool", ""},
		{"broken", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"x"}`, "call_tool", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			in, out, r := carried(t, c.body, c.header)
			read, _ := io.ReadAll(r.Body)
			if c.want == "" {
				is.True(out == in)
				is.Equal(string(read), c.body) // the go-sdk reads it as it came
				return
			}
			is.Equal(string(read), string(out.Body))
			e := out.RPC()
			is.True(e.OK && e.ParamsOK)
			is.Equal(string(e.Name), `"`+c.want+`"`)
			is.Equal(string(e.ID), "1")
			if c.header != "-" {
				is.Equal(r.Header.Get("Mcp-Name"), c.want)
			} else {
				is.Equal(len(r.Header["Mcp-Name"]), 0)
			}
			_, args, _ := engine.Unwrap(in.RPC().Args)
			var want, got any
			is.NoErr(json.Unmarshal(args, &want))
			is.NoErr(json.Unmarshal(e.Args, &got))
			is.Equal(got, want)
			if e.Meta != nil {
				is.Equal(string(e.Meta), `{"x":1}`) // every other member kept
			}
		})
	}
}

// FuzzCarried holds any body and Mcp-Name header to one of two outcomes:
// left exactly as it came, or one tools/call of the tool call_tool named,
// with its arguments, that every front and the go-sdk read alike.
func FuzzCarried(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"a","arguments":{}}}}`, "call_tool")
	f.Add(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"call_tool","arguments":{"name":"a\u0000b"}}}`, "-")
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","name":"x","arguments":{"name":"a"}}}`, "call_tool")
	f.Add(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"a"}}}]`, "-")
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"a","arguments":{"x":"<<&& "}}}}`, "call_tool")
	f.Fuzz(func(t *testing.T, body, header string) {
		in, out, r := carried(t, body, header)
		read, _ := io.ReadAll(r.Body)
		if out == in {
			if !bytes.Equal(read, []byte(body)) {
				t.Fatalf("left as it came, yet the body reads %q", read)
			}
			return
		}
		name, args, ok := engine.Unwrap(in.RPC().Args)
		if !ok || !bytes.Equal(read, out.Body) || !out.Whole {
			t.Fatalf("rewritten %q into %q from arguments Unwrap refuses (%v) or reads apart", body, out.Body, ok)
		}
		e := out.RPC()
		var carriedName string
		if !e.OK || json.Unmarshal(e.Name, &carriedName) != nil || carriedName != name || string(e.Method) != `"tools/call"` {
			t.Fatalf("%q: the call carried reads as %q, not %q", out.Body, e.Name, name)
		}
		var want, got any
		if json.Unmarshal(args, &want) != nil || json.Unmarshal(e.Args, &got) != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: arguments %q, carried %q", out.Body, e.Args, args)
		}
		if len(out.Body) > len(body) {
			t.Fatalf("the call carried (%d bytes) is larger than the call that carried it (%d)", len(out.Body), len(body))
		}
		if h := r.Header["Mcp-Name"]; len(h) > 0 && h[0] != name {
			t.Fatalf("Mcp-Name %q for the call of %q", h, name)
		}
	})
}
