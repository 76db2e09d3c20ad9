package vurb_test

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// TestInlineGoexitGivesItsSlotBack: with handlers on the caller's
// goroutine, a handler that calls runtime.Goexit ends that goroutine; the
// action's concurrency slot is still given back.
func TestInlineGoexitGivesItsSlotBack(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithInlineHandlers())
	vurb.Action(app, "jobs.exit", func(_ context.Context, in struct {
		Exit bool `json:"exit"`
	}) (string, error) {
		if in.Exit {
			runtime.Goexit()
		}
		return "ran", nil
	}).MaxConcurrent(1, 0)
	done := make(chan struct{})
	go func() {
		defer close(done)
		app.Call(context.Background(), "jobs_exit", []byte(`{"exit":true}`))
	}()
	<-done
	res, err := app.Call(context.Background(), "jobs_exit", []byte(`{"exit":false}`))
	is.NoErr(err)
	is.Equal(res.Content[0].(*mcp.TextContent).Text, "ran") // not refused at capacity
}

// TestFastLaneContainsMiddlewarePanics: a request middleware that panics on
// a sessionless call answers an internal error with a reference, as on the
// go-sdk's path, and the server goes on serving.
func TestFastLaneContainsMiddlewarePanics(t *testing.T) {
	is := is.New(t)
	boom := func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				panic("boom")
			}
			return next(ctx, method, req)
		}
	}
	app := vurb.New(vurb.WithRequestMiddleware(boom), vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.Query(app, "docs.search", func(_ context.Context, in laneInput) (string, error) { return in.Query, nil })
	handler := app.HTTPHandler()
	for range 2 {
		got := serveOnce(handler, newCall(`1`, "docs_search", `{"query":"x"}`))
		is.Equal(got.status, http.StatusOK)
		is.True(strings.Contains(got.body, `"code":-32603`))
		is.True(strings.Contains(got.body, "ref X"))
	}
}
