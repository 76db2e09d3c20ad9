package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-playground/validator/v10"
	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// A handler asks the client for input with vurb.Ask and friends, and the
// same handler serves both protocol generations: a handshake-era client is
// asked on its session, a 2026-07-28 client through input-required rounds.
// These tests drive both with the go-sdk's own client, which answers input
// requests with its handlers and retries rounds by itself.

type Confirm struct {
	Yes bool `json:"yes" description:"Delete it?"`
}

type ProjectRef struct {
	ID string `json:"id" validate:"required" description:"Project ID"`
}

// inputApp has a delete that asks for confirmation, and a two-round
// sampling flow that carries state between rounds.
func inputApp(deleted *atomic.Int32, runs *atomic.Int32) *vurb.App {
	app := vurb.New()
	vurb.Mutation(app, "projects.delete", func(ctx context.Context, in ProjectRef) (string, error) {
		runs.Add(1)
		ok, err := vurb.Ask[Confirm](ctx, "confirm", "Delete project "+in.ID+"?")
		if err != nil {
			return "", err
		}
		if !ok.Yes {
			return "kept " + in.ID, nil
		}
		deleted.Add(1)
		return "deleted " + in.ID, nil
	})
	vurb.Action(app, "docs.summarize", func(ctx context.Context, in ProjectRef) (string, error) {
		runs.Add(1)
		var draft string
		if _, err := vurb.Carried(ctx, &draft); err != nil {
			return "", err
		}
		if draft == "" {
			res, err := vurb.AskSampling(ctx, "draft", sampling("Draft a summary of "+in.ID))
			if err != nil {
				return "", err
			}
			draft = res.Content.(*mcp.TextContent).Text
		}
		res, err := vurb.AskSampling(ctx, "polish", sampling("Polish: "+draft))
		if err != nil {
			return "", errors.Join(err, vurb.Carry(ctx, draft))
		}
		return res.Content.(*mcp.TextContent).Text, nil
	})
	return app
}

func sampling(text string) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{MaxTokens: 50, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}
}

// answeringClient answers elicitations with yes and sampling by echoing the
// prompt in capitals.
func answeringClient(asked *atomic.Int32) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"yes": true}}, nil
		},
		CreateMessageWithToolsHandler: func(_ context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			asked.Add(1)
			text := req.Params.Messages[0].Content[0].(*mcp.TextContent).Text
			return &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "test",
				Content: []mcp.Content{&mcp.TextContent{Text: strings.ToUpper(text)}}}, nil
		},
	}
}

func TestAskAcrossProtocolGenerations(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			is := is.New(t)
			var deleted, runs, asked atomic.Int32
			cs := connectVersion(t, version, inputApp(&deleted, &runs), answeringClient(&asked))

			res, err := callRaw(t, cs, "projects_delete", `{"id":"p7"}`)
			is.NoErr(err)
			is.Equal(text(res), "deleted p7")
			is.Equal(deleted.Load(), int32(1))
			is.Equal(asked.Load(), int32(1))

			runs.Store(0)
			asked.Store(0)
			res, err = callRaw(t, cs, "docs_summarize", `{"id":"p7"}`)
			is.NoErr(err)
			is.Equal(text(res), "POLISH: DRAFT A SUMMARY OF P7")
			is.Equal(asked.Load(), int32(2)) // two sampling requests
			if version == "2026-07-28" {
				is.Equal(runs.Load(), int32(3)) // three rounds: draft, polish, done
			} else {
				is.Equal(runs.Load(), int32(1)) // asked on the session, in one run
			}
		})
	}
}

// postRPC sends one JSON-RPC request of revision 2026-07-28 to h and returns
// the decoded response.
func postRPC(t *testing.T, h http.Handler, method string, params map[string]any) (result map[string]any, rpcErr *jsonrpc.Error, status int) {
	t.Helper()
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{}},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	} else if uri, ok := params["uri"].(string); ok {
		req.Header.Set("Mcp-Name", uri)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	data, _ := io.ReadAll(w.Body)
	if i := bytes.Index(data, []byte("data: ")); i >= 0 { // an event stream of one response
		data = data[i+len("data: "):]
	}
	var resp struct {
		Result map[string]any `json:"result"`
		Error  *jsonrpc.Error `json:"error"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(data), &resp); err != nil {
		t.Fatalf("%d %s: %v", w.Code, data, err)
	}
	return resp.Result, resp.Error, w.Code
}

func TestRequestStateCannotBeForged(t *testing.T) {
	is := is.New(t)
	var deleted, runs atomic.Int32
	key := bytes.Repeat([]byte{7}, 32)
	app := inputApp(&deleted, &runs)
	h := app.HTTPHandler()

	first, rpcErr, _ := postRPC(t, h, "tools/call", map[string]any{"name": "projects_delete", "arguments": map[string]any{"id": "p1"}})
	is.True(rpcErr == nil)
	is.Equal(first["resultType"], "input_required")
	state := first["requestState"].(string)
	is.True(strings.HasPrefix(state, "v2."))
	is.True(first["inputRequests"].(map[string]any)["confirm"] != nil)

	yes := map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"yes": true}}}
	retry := func(h http.Handler, state string, answers map[string]any) (map[string]any, *jsonrpc.Error, int) {
		return postRPC(t, h, "tools/call", map[string]any{"name": "projects_delete", "arguments": map[string]any{"id": "p1"},
			"inputResponses": answers, "requestState": state})
	}

	// Tampered: a changed byte in the payload, or a state sealed for
	// another tool, or by another app's key.
	tampered := state[:4] + string(rune(state[4]^1)) + state[5:]
	for name, bad := range map[string]string{"tampered": tampered, "truncated": state[:len(state)-2], "garbage": "hello"} {
		_, rpcErr, status := retry(h, bad, yes)
		is.True(rpcErr != nil) // name
		is.Equal(rpcErr.Code, int64(jsonrpc.CodeInvalidParams))
		is.True(strings.Contains(rpcErr.Message, "invalid requestState"))
		is.Equal(status, http.StatusBadRequest) // the go-sdk answers a 2026-07-28 invalid-params error with 400
		t.Logf("%s state refused: %s", name, rpcErr.Message)
	}
	other := vurb.New(vurb.WithRequestStateKeys(key))
	vurb.Mutation(other, "projects.delete", func(ctx context.Context, in ProjectRef) (string, error) { return "", nil })
	_, rpcErr, _ = retry(other.HTTPHandler(), state, yes)
	is.True(rpcErr != nil && strings.Contains(rpcErr.Message, "integrity"))
	is.Equal(deleted.Load(), int32(0))

	// A missing answer asks again, with a new state: the one sent is spent.
	// Extra answers are ignored.
	again, rpcErr, _ := retry(h, state, map[string]any{"wrong_key": yes["confirm"]})
	is.True(rpcErr == nil)
	is.Equal(again["resultType"], "input_required")
	_, rpcErr, _ = retry(h, state, yes)
	is.True(rpcErr != nil && strings.Contains(rpcErr.Message, "already used"))
	done, rpcErr, _ := retry(h, again["requestState"].(string), map[string]any{"confirm": yes["confirm"], "extra": yes["confirm"]})
	is.True(rpcErr == nil)
	is.Equal(done["content"].([]any)[0].(map[string]any)["text"], "deleted p1")
	is.Equal(deleted.Load(), int32(1))
}

func TestRequestStateExpires(t *testing.T) {
	is := is.New(t)
	key := bytes.Repeat([]byte{9}, 32)
	shortLived := vurb.New(vurb.WithRequestStateKeys(key), vurb.WithRequestStateMaxAge(time.Second))
	vurb.Mutation(shortLived, "projects.delete", func(ctx context.Context, in ProjectRef) (string, error) {
		_, err := vurb.Ask[Confirm](ctx, "confirm", "Sure?")
		return "deleted", err
	})
	h := shortLived.HTTPHandler()
	first, _, _ := postRPC(t, h, "tools/call", map[string]any{"name": "projects_delete", "arguments": map[string]any{"id": "p1"}})
	time.Sleep(2100 * time.Millisecond)
	_, rpcErr, _ := postRPC(t, h, "tools/call", map[string]any{"name": "projects_delete", "arguments": map[string]any{"id": "p1"},
		"inputResponses": map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"yes": true}}},
		"requestState":   first["requestState"]})
	is.True(rpcErr != nil && strings.Contains(rpcErr.Message, "expired"))
}

func TestAskNeedsADeclaredCapability(t *testing.T) {
	is := is.New(t)
	var deleted, runs atomic.Int32
	// A 2026-07-28 client that declares no elicitation: the handler's Ask
	// fails, and the error it returns is the spec's -32021.
	cs := connectVersion(t, "2026-07-28", inputApp(&deleted, &runs), nil)
	_, err := callRaw(t, cs, "projects_delete", `{"id":"p7"}`)
	var rpcErr *jsonrpc.Error
	is.True(errors.As(err, &rpcErr))
	is.Equal(rpcErr.Code, int64(mcp.CodeMissingRequiredClientCapabilities))
	is.True(strings.Contains(rpcErr.Message, "elicitation"))
	is.Equal(deleted.Load(), int32(0))
}

func TestAskInPromptsAndInProcess(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	vurb.Prompt(app, "review", func(ctx context.Context, _ struct{}) (string, error) {
		lang, err := vurb.Ask[struct {
			Language string `json:"language" validate:"required"`
		}](ctx, "language", "Which language?")
		if err != nil {
			return "", err
		}
		return "Review this " + lang.Language + " code.", nil
	}).Describe("Review code")
	vurb.Query(app, "docs.ask", func(ctx context.Context, _ struct{}) (string, error) {
		_, err := vurb.Ask[Confirm](ctx, "confirm", "Sure?")
		return "ok", err
	})
	var asked atomic.Int32
	opts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Add(1)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"language": "Go"}}, nil
	}}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectVersion(t, version, app, opts)
		res, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "review"})
		is.NoErr(err)
		is.Equal(res.Messages[0].Content.(*mcp.TextContent).Text, "Review this Go code.")
	}
	is.Equal(asked.Load(), int32(2))

	// In-process, the round ends with the requests for the caller to answer.
	res, err := app.Call(context.Background(), "docs_ask", nil)
	is.NoErr(err)
	is.True(res.InputRequests["confirm"] != nil)
	is.True(res.RequestState != "")
}

type Reschedule struct {
	DueDate string `json:"due_date" validate:"required" description:"Due date"`
	Reason  string `json:"reason,omitempty" description:"Why it moves"`
}

// TestPeopleReadLabels: a description that only repeats a field's name is
// left out of what a model reads, and given to people as the field's title:
// in a form (elicitation) and as a prompt's argument.
func TestPeopleReadLabels(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	vurb.Action(app, "tasks.reschedule", func(ctx context.Context, _ struct{}) (string, error) {
		in, err := vurb.Ask[Reschedule](ctx, "when", "When is it due?")
		return in.DueDate, err
	})
	vurb.Prompt(app, "plan", func(_ context.Context, in Reschedule) (string, error) { return "plan for " + in.DueDate, nil })
	var form map[string]any
	c := vurbtest.New(t, app, vurbtest.OnElicit(func(p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		form, _ = p.RequestedSchema.(map[string]any)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"due_date": "2026-12-01"}}, nil
	}))
	is.Equal(c.CallText("tasks_reschedule", map[string]any{}), "2026-12-01")
	props := form["properties"].(map[string]any)
	is.Equal(props["due_date"], map[string]any{"type": "string", "title": "Due date", "minLength": float64(1)})
	is.Equal(props["reason"], map[string]any{"type": "string", "description": "Why it moves"}) // says more than the name: kept

	args := c.Prompts()[0].Arguments
	is.Equal(*args[0], mcp.PromptArgument{Name: "due_date", Title: "Due date", Required: true})
	is.Equal(*args[1], mcp.PromptArgument{Name: "reason", Description: "Why it moves"})
}

type Relabel struct {
	Name string `json:"name" title:"Full name" description:"Name"`
	Code string `json:"code,omitempty" validate:"omitempty,excludes=q" description:"Code"`
}

// TestLabelsKeepTheirOwnTitleAndSurviveNotes: a field's own title tag is
// the label people read, not the name-echoing description beside it; and a
// name-echoing description is still the label when the schema's
// description holds only a note of the field's rules.
func TestLabelsKeepTheirOwnTitleAndSurviveNotes(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	vurb.Action(app, "people.rename", func(ctx context.Context, _ struct{}) (string, error) {
		in, err := vurb.Ask[Relabel](ctx, "who", "Who is it?")
		return in.Name, err
	})
	vurb.Prompt(app, "greet", func(_ context.Context, in Relabel) (string, error) { return "hello " + in.Name, nil })
	var form map[string]any
	c := vurbtest.New(t, app, vurbtest.OnElicit(func(p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		form, _ = p.RequestedSchema.(map[string]any)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
	}))
	is.Equal(c.CallText("people_rename", map[string]any{}), "Ada")
	props := form["properties"].(map[string]any)
	is.Equal(props["name"].(map[string]any)["title"], "Full name")
	is.Equal(props["code"].(map[string]any)["title"], "Code")

	args := c.Prompts()[0].Arguments
	is.Equal(args[0].Title, "Full name")
	is.Equal(args[1].Title, "Code")
}

// answer is asked with a rule only the app's own validator knows.
type answer struct {
	Yes bool `json:"yes" validate:"agreed" description:"Agree?"`
}

// TestAskValidatesWithTheAppsRules: what Ask asks for is decoded and
// validated by the app's own validator, with its rules, as a tool's
// arguments are; the process shares no validator between apps.
func TestAskValidatesWithTheAppsRules(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			is := is.New(t)
			app := vurb.New(vurb.WithRule("agreed", func(fl validator.FieldLevel) bool { return fl.Field().Bool() }, "must be agreed to"))
			vurb.Action(app, "terms.accept", func(ctx context.Context, _ struct{}) (string, error) {
				got, err := vurb.Ask[answer](ctx, "terms", "Agree to the terms?")
				if err != nil {
					return "", err
				}
				return fmt.Sprint(got.Yes), nil
			})
			var asked atomic.Int32
			cs := connectVersion(t, version, app, answeringClient(&asked))
			res, err := callRaw(t, cs, "terms_accept", `{}`)
			is.NoErr(err)
			is.Equal(text(res), "true")
			is.Equal(asked.Load(), int32(1))
		})
	}
}
