package vurb_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// The fast lane answers some sessionless requests itself. It must be
// indistinguishable from the go-sdk path: the same status, the same headers
// that matter, the same bytes. These tests send the same requests through
// one app's HTTPHandler with the lane and with WithFastLane(false), and compare.

type laneInput struct {
	Query  string `json:"query" validate:"required,max=50" description:"Search text"`
	Limit  *int   `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Page size"`
	Region string `json:"region,omitempty" description:"Routed on"`
}

type laneOutput struct {
	Hits  []string `json:"hits"`
	Note  string   `json:"note"`
	Score float64  `json:"score"`
}

func laneApp(exp vurb.Exposition) *vurb.App {
	app := vurb.New(vurb.WithExposition(exp), vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "docs.search", func(_ context.Context, in laneInput) (string, error) { return in.Query, nil })
	vurb.Query(app, "docs.rich", func(_ context.Context, in laneInput) (laneOutput, error) {
		return laneOutput{Hits: []string{"<a href=\"x\">&amp;</a>", "ünï\u2028cödé"}, Note: in.Query, Score: 0.1 + 0.2}, nil
	})
	vurb.Mutation(app, "docs.fail", func(_ context.Context, in laneInput) (string, error) {
		switch in.Query {
		case "panic":
			panic("boom")
		case "rpc":
			return "", &jsonrpc.Error{Code: -32099, Message: "custom protocol error"}
		case "params":
			return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad params from the handler"}
		case "capability":
			return "", vurb.RequireCapability(context.Background(), vurb.Sampling)
		}
		return "", errors.New("plain failure <" + in.Query + ">")
	})
	vurb.Action(app, "docs.ask", func(ctx context.Context, in laneInput) (string, error) {
		ok, err := vurb.Ask[Confirm](ctx, "confirm", "Sure about "+in.Query+"?")
		if err != nil {
			return "", err
		}
		return fmt.Sprint(ok.Yes), nil
	})
	vurb.Action(app, "docs.need", func(ctx context.Context, in laneInput) (string, error) {
		return "", vurb.RequireCapability(ctx, vurb.Sampling)
	})
	vurb.Query(app, "geo.locate", func(_ context.Context, in laneInput) (string, error) { return in.Region, nil }).
		Header("region", "Region")
	vurb.Query(app, "docs.trace", func(ctx context.Context, in laneInput) (string, error) {
		c := vurb.CallerFrom(ctx)
		client := ""
		if c.Client != nil {
			client = c.Client.Name
		}
		return fmt.Sprintf("%v|%v|%s", c.Meta["traceparent"], c.Meta["tracestate"], client), nil
	})
	vurb.Query(app, "docs.meta", func(_ context.Context, in laneInput) (*mcp.CallToolResult, error) {
		res := vurb.Text("with meta: " + in.Query)
		res.Meta = mcp.Meta{"z": 1, "a": map[string]any{"<b>": "&"}, "q": in.Query}
		if in.Query == "own server" {
			res.Meta[mcp.MetaKeyServerInfo] = map[string]string{"name": "handler's own"}
		}
		return res, nil
	})
	vurb.Prompt(app, "hello", func(context.Context, struct{}) (string, error) { return "hi", nil })
	return app
}

// laneCase is one HTTP request.
type laneCase struct {
	name    string
	body    string
	headers map[string]string
}

const newMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`

func newCall(id, name, args string) laneCase {
	return laneCase{
		name:    "new " + name + " " + args,
		body:    `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `,` + newMeta + `}}`,
		headers: map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name},
	}
}

func oldCall(id, name, args string) laneCase {
	return laneCase{
		name:    "old " + name + " " + args,
		body:    `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`,
		headers: map[string]string{"Mcp-Protocol-Version": "2025-11-25"},
	}
}

func laneCorpus(exp vurb.Exposition) []laneCase {
	flat := func(action string) string {
		if exp == vurb.Grouped {
			return "docs"
		}
		return "docs_" + action
	}
	args := func(action, rest string) string {
		if exp == vurb.Grouped {
			if rest == "{}" {
				return `{"action":"` + action + `"}`
			}
			return `{"action":"` + action + `",` + rest[1:]
		}
		return rest
	}
	var cs []laneCase
	for _, mk := range []func(id, name, args string) laneCase{newCall, oldCall} {
		cs = append(cs,
			mk(`1`, flat("search"), args("search", `{"query":"golang","limit":10}`)),
			mk(`"s-1"`, flat("search"), args("search", `{"query":"gö <&> \u2028"}`)),
			mk(`9007199254740993`, flat("search"), args("search", `{"query":"big id"}`)),
			mk(`-3`, flat("search"), args("search", `{"query":"negative id"}`)),
			mk(`1.5`, flat("search"), args("search", `{"query":"fractional id"}`)),
			mk(`null`, flat("search"), args("search", `{"query":"null id"}`)),
			mk(`2`, flat("search"), args("search", `{"limit":1000}`)),
			mk(`3`, flat("search"), args("search", `{"query":"x","limt":1}`)),
			mk(`4`, flat("search"), args("search", `{"Query":"case"}`)),
			mk(`5`, flat("search"), `"not an object"`),
			mk(`6`, flat("search"), `null`),
			mk(`7`, flat("rich"), args("rich", `{"query":"structured"}`)),
			mk(`8`, flat("fail"), args("fail", `{"query":"plain"}`)),
			mk(`9`, flat("fail"), args("fail", `{"query":"rpc"}`)),
			mk(`10`, flat("fail"), args("fail", `{"query":"params"}`)),
			mk(`11`, flat("fail"), args("fail", `{"query":"panic"}`)),
			mk(`12`, flat("ask"), args("ask", `{"query":"deleting"}`)),
			mk(`13`, flat("need"), args("need", `{"query":"sampling"}`)),
			mk(`18`, flat("meta"), args("meta", `{"query":"handler meta"}`)),
			mk(`19`, flat("meta"), args("meta", `{"query":"own server"}`)),
			mk(`14`, "nope", `{}`),
			mk(`15`, "geo_locate", `{"region":"eu"}`),
		)
	}
	if exp == vurb.Grouped {
		cs = append(cs, newCall(`16`, "docs", `{"action":"nope"}`), newCall(`17`, "docs", `{"query":"no action"}`))
	}
	list := func(name, params string, h map[string]string) laneCase {
		return laneCase{name: name, body: `{"jsonrpc":"2.0","id":"l","method":"tools/list","params":` + params + `}`, headers: h}
	}
	newH := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
	cs = append(cs,
		list("new list", `{`+newMeta+`}`, newH),
		list("new list again", `{`+newMeta+`}`, newH),
		list("new list cursor", `{"cursor":"abc",`+newMeta+`}`, newH),
		list("new list no meta", `{}`, newH),
		list("old list", `{}`, map[string]string{"Mcp-Protocol-Version": "2025-11-25"}),
	)
	bad := newCall(`20`, flat("search"), args("search", `{"query":"x"}`))
	mutate := func(name string, f func(c *laneCase)) {
		c := laneCase{name: name, body: bad.body, headers: map[string]string{}}
		for k, v := range bad.headers {
			c.headers[k] = v
		}
		f(&c)
		cs = append(cs, c)
	}
	mutate("header method mismatch", func(c *laneCase) { c.headers["Mcp-Method"] = "tools/list" })
	mutate("header method case", func(c *laneCase) { c.headers["Mcp-Method"] = "Tools/Call" })
	mutate("header method spaces", func(c *laneCase) { c.headers["Mcp-Method"] = "  tools/call " })
	mutate("header name mismatch", func(c *laneCase) { c.headers["Mcp-Name"] = "other" })
	mutate("no method header", func(c *laneCase) { delete(c.headers, "Mcp-Method") })
	mutate("unknown version", func(c *laneCase) { c.headers["Mcp-Protocol-Version"] = "2099-01-01" })
	mutate("meta version mismatch", func(c *laneCase) {
		c.body = strings.Replace(c.body, `"protocolVersion":"2026-07-28"`, `"protocolVersion":"2027-01-01"`, 1)
	})
	mutate("no capabilities", func(c *laneCase) {
		c.body = strings.Replace(c.body, `,"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}`, ``, 1)
	})
	traced := newCall(`21`, flat("trace"), args("trace", `{"query":"t"}`))
	traced.name = "trace context in _meta"
	traced.body = strings.Replace(traced.body, `"_meta":{`,
		`"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","tracestate":"k=v",`+
			`"io.modelcontextprotocol/clientInfo":{"name":"tracer","version":"1"},`, 1)
	cs = append(cs, traced)
	mutate("trace context not a string", func(c *laneCase) {
		c.body = strings.Replace(c.body, `"_meta":{`, `"_meta":{"traceparent":7,`, 1)
	})
	mutate("progress token", func(c *laneCase) {
		c.body = strings.Replace(c.body, `"_meta":{`, `"_meta":{"progressToken":"p",`, 1)
	})
	mutate("extra member", func(c *laneCase) { c.body = strings.Replace(c.body, `{"jsonrpc"`, `{"extra":1,"jsonrpc"`, 1) })
	mutate("wrong version tag", func(c *laneCase) { c.body = strings.Replace(c.body, `"2.0"`, `"1.0"`, 1) })
	mutate("batch", func(c *laneCase) { c.body = "[" + c.body + "]" })
	mutate("notification", func(c *laneCase) { c.body = strings.Replace(c.body, `"id":20,`, ``, 1) })
	mutate("malformed", func(c *laneCase) { c.body = c.body[:len(c.body)-3] })
	mutate("empty", func(c *laneCase) { c.body = "" })
	mutate("wrong content type", func(c *laneCase) { c.headers["Content-Type"] = "text/plain" })
	mutate("json only accept", func(c *laneCase) { c.headers["Accept"] = "application/json" })
	mutate("param header", func(c *laneCase) { c.headers["Mcp-Param-Region"] = "eu" })
	mutate("session id", func(c *laneCase) { c.headers["Mcp-Session-Id"] = "abc" })
	mutate("prompts get", func(c *laneCase) {
		c.body = `{"jsonrpc":"2.0","id":21,"method":"prompts/get","params":{"name":"hello",` + newMeta + `}}`
		c.headers["Mcp-Method"] = "prompts/get"
		c.headers["Mcp-Name"] = "hello"
	})
	mutate("huge id", func(c *laneCase) {
		c.body = strings.Replace(c.body, `"id":20`, `"id":"`+strings.Repeat("i", 5000)+`"`, 1)
	})
	return cs
}

// laneAnswer is what a client sees of one answer, with what legitimately
// differs between two runs (panic references, the time in a sealed state)
// masked.
type laneAnswer struct {
	status  int
	headers string
	body    string
}

var (
	refPattern   = regexp.MustCompile(`ref [0-9a-z]+`)
	statePattern = regexp.MustCompile(`"requestState":"v2\.[^"]*"`)
)

func serveOnce(h http.Handler, c laneCase) laneAnswer {
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(c.body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	var hs []string
	for _, k := range []string{"Content-Type", "Cache-Control", "Connection", "Mcp-Session-Id", "Allow"} {
		hs = append(hs, k+"="+strings.Join(w.Header().Values(k), ","))
	}
	body := refPattern.ReplaceAllString(w.Body.String(), "ref X")
	body = statePattern.ReplaceAllString(body, `"requestState":"v2.X"`)
	return laneAnswer{status: w.Code, headers: strings.Join(hs, " "), body: body}
}

func TestFastLaneAnswersAsTheSDKDoes(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		for _, mode := range []struct {
			name string
			opts []vurb.ServeOption
		}{
			{"default", nil},
			{"stateless", []vurb.ServeOption{vurb.WithStateless()}},
			{"stateless json", []vurb.ServeOption{vurb.WithStateless(), vurb.WithJSONResponse()}},
			{"json", []vurb.ServeOption{vurb.WithJSONResponse()}},
			{"filtered", []vurb.ServeOption{vurb.WithExcludeTags("none")}},
		} {
			t.Run(exp.String()+"/"+mode.name, func(t *testing.T) {
				app := laneApp(exp)
				fast := app.HTTPHandler(mode.opts...)
				sdk := app.HTTPHandler(append([]vurb.ServeOption{vurb.WithFastLane(false)}, mode.opts...)...)
				for _, c := range laneCorpus(exp) {
					want, got := serveOnce(sdk, c), serveOnce(fast, c)
					if got != want {
						t.Errorf("%s:\n lane: %d %s\n %q\n  sdk: %d %s\n %q", c.name, got.status, got.headers, got.body,
							want.status, want.headers, want.body)
					}
				}
			})
		}
	}
}

// FuzzFastLane sends generated requests through both paths.
func FuzzFastLane(f *testing.F) {
	for _, c := range laneCorpus(vurb.Flat) {
		f.Add(c.body, c.headers["Mcp-Protocol-Version"], c.headers["Mcp-Method"], c.headers["Mcp-Name"])
	}
	app := laneApp(vurb.Flat)
	fast, sdk := app.HTTPHandler(), app.HTTPHandler(vurb.WithFastLane(false))
	f.Fuzz(func(t *testing.T, body, version, method, name string) {
		c := laneCase{body: body, headers: map[string]string{}}
		for k, v := range map[string]string{"Mcp-Protocol-Version": version, "Mcp-Method": method, "Mcp-Name": name} {
			if v != "" && !strings.ContainsAny(v, "\r\n\x00") {
				c.headers[k] = v
			}
		}
		want, got := serveOnce(sdk, c), serveOnce(fast, c)
		if got != want {
			t.Errorf("%q %v:\n lane: %d %s %q\n  sdk: %d %s %q", body, c.headers, got.status, got.headers, got.body,
				want.status, want.headers, want.body)
		}
	})
}

// TestFastLaneHandsTheCallerItsMeta: a sessionless call with trace context
// in its _meta is answered in the lane, and its handler reads the trace
// context and the client from Caller.
func TestFastLaneHandsTheCallerItsMeta(t *testing.T) {
	for _, c := range laneCorpus(vurb.Flat) {
		if c.name != "trace context in _meta" {
			continue
		}
		got := serveOnce(laneApp(vurb.Flat).HTTPHandler(), c)
		if !strings.Contains(got.body, `00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01|k=v|tracer`) {
			t.Fatalf("the handler did not see the request's _meta: %s", got.body)
		}
		return
	}
	t.Fatal("no trace case in the corpus")
}

// TestDeepNestingIsAnsweredAlikeOnEveryPath holds the README's word: a
// message nested more than 1,000 levels deep is refused by the go-sdk's
// reader with 400 over HTTP, and the fast lane answers it the same way.
func TestDeepNestingIsAnsweredAlikeOnEveryPath(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "notes.find", func(context.Context, struct {
		Q any `json:"q"`
	}) (string, error) {
		return "found", nil
	})
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	shallow := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	for _, opts := range [][]vurb.ServeOption{nil, {vurb.WithFastLane(false)}} {
		srv := httptest.NewServer(app.HTTPHandler(opts...))
		for nesting, want := range map[string]int{deep: http.StatusBadRequest, shallow: http.StatusOK} {
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_find","arguments":{"q":` + nesting +
				`},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
			req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "notes_find")
			resp, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			resp.Body.Close()
			is.Equal(resp.StatusCode, want)
		}
		srv.Close()
	}
}
