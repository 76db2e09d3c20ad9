package vurbotel_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
	"go.opentelemetry.io/otel/codes"
)

func TestStatusPerErrorKind(t *testing.T) {
	for _, mode := range modes() {
		t.Run(mode.name, func(t *testing.T) {
			tel := newTelemetry(t)
			c := vurbtest.New(t, newApp(tel), mode.opts...)
			for _, k := range []struct {
				tool      string
				args      any
				errorType string
				text      string // in the status description
			}{
				{"docs_search", map[string]any{}, "validation", "query"},
				{"docs_search", map[string]any{"query": "go", "page": 2}, "validation", `unknown field "page"`},
				{"docs_fail", nil, "handler", "index offline"},
				{"docs_boom", nil, "panic", ""},
				{"docs_slow", nil, "timeout", ""},
			} {
				t.Run(k.errorType+" "+k.tool, func(t *testing.T) {
					is := is.New(t)
					tel.spans.Reset()
					c.CallError(k.tool, k.args)
					span := tel.span(t, "tools/call "+k.tool)
					got := attrs(span.Attributes())
					is.Equal(got["error.type"], k.errorType)
					is.Equal(got["vurb.outcome"], k.errorType)
					is.Equal(span.Status().Code, codes.Error)
					is.True(strings.Contains(span.Status().Description, k.text))
				})
			}
		})
	}
}

func TestJSONRPCErrorIsTheErrorType(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	c := vurbtest.New(t, newApp(tel))

	err := c.GetPromptError("nope", nil)
	is.True(err != nil)

	span := tel.span(t, "prompts/get") // no prompt of the app's: no target
	got := attrs(span.Attributes())
	is.Equal(got["gen_ai.prompt.name"], "_OTHER")
	is.True(strings.HasPrefix(got["error.type"], "-32")) // a JSON-RPC error code
	is.Equal(got["rpc.response.status_code"], got["error.type"])
	is.Equal(span.Status().Code, codes.Error)
	is.True(span.Status().Description != "")
}

func TestCancelledCall(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	started := make(chan struct{})
	app := vurb.New(append(tel.options(), vurb.WithName("docs"))...)
	vurb.Action(app, "docs.wait", func(ctx context.Context, _ struct{}) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	})
	c := vurbtest.New(t, app)

	_, err := c.CallResult("docs_wait", nil, vurbtest.CancelWhen(started))
	is.True(err != nil)

	span := tel.span(t, "tools/call docs_wait")
	is.Equal(attrs(span.Attributes())["error.type"], "cancelled")
	is.Equal(span.Status().Code, codes.Error)
}

func TestBusyCall(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	running, release := make(chan struct{}), make(chan struct{})
	app := vurb.New(append(tel.options(), vurb.WithName("docs"), vurb.WithMaxRunning(1))...)
	vurb.Action(app, "docs.hold", func(ctx context.Context, _ struct{}) (string, error) {
		running <- struct{}{}
		<-release
		return "done", nil
	})
	c := vurbtest.New(t, app)

	var wg sync.WaitGroup
	wg.Go(func() { c.CallText("docs_hold", nil) })
	<-running
	c.CallError("docs_hold", nil) // refused: one handler already runs
	close(release)
	wg.Wait()

	var types []string
	for _, span := range tel.spansNamed(t, "tools/call docs_hold", 2) {
		types = append(types, attrs(span.Attributes())["error.type"])
	}
	slices.Sort(types)
	is.Equal(types, []string{"", "busy"})
}

func TestDeniedCall(t *testing.T) {
	for _, mode := range modes() {
		t.Run(mode.name, func(t *testing.T) {
			is := is.New(t)
			tel := newTelemetry(t)
			app := newApp(tel)
			vurb.Mutation(app, "docs.purge", func(context.Context, struct{}) (string, error) { return "purged", nil }).
				RequireScopes("docs:admin")
			id := vurbtest.Identity{Token: &auth.TokenInfo{UserID: "alice", Scopes: []string{"docs:read"}}}
			c := vurbtest.New(t, app, append(mode.opts, id)...)

			res, err := c.CallResult("docs_purge", nil)
			is.True(err != nil || res.IsError) // refused

			span := tel.span(t, "tools/call docs_purge")
			is.Equal(attrs(span.Attributes())["error.type"], "denied")
			is.Equal(span.Status().Code, codes.Error)
		})
	}
}

// TestLimitedCall: a call refused by a rate limit is an error span of type
// "limited", so a dashboard tells throttling from failures.
func TestLimitedCall(t *testing.T) {
	is := is.New(t)
	tel := newTelemetry(t)
	app := newApp(tel)
	vurb.Query(app, "docs.count", func(context.Context, struct{}) (string, error) { return "1", nil }).
		RateLimit(vurb.AllCallers(1, time.Hour))
	c := vurbtest.New(t, app)
	is.Equal(c.CallText("docs_count", nil), "1")
	tel.spans.Reset()
	is.True(strings.Contains(c.CallError("docs_count", nil), "rate limit"))

	span := tel.span(t, "tools/call docs_count")
	is.Equal(attrs(span.Attributes())["error.type"], "limited")
	is.Equal(span.Status().Code, codes.Error)
}
