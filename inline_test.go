package vurb_test

import (
	"context"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// TestInlineHandlers: the same pipeline on the caller's goroutine.
func TestInlineHandlers(t *testing.T) {
	is := is.New(t)
	app := newFixture(vurb.WithInlineHandlers())
	vurb.Mutation(app, "jobs.explode", func(context.Context, noInput) (string, error) { panic("boom") })
	vurb.Query(app, "jobs.wait", func(ctx context.Context, _ noInput) (string, error) {
		<-ctx.Done() // honours its context
		return "", ctx.Err()
	}).Timeout(10 * time.Millisecond)

	is.Equal(text(call(t, app, "projects_list", `{"workspace_id":"w"}`)), `{"projects":[{"id":"p1","name":"Apollo"}]}`)
	is.Equal(text(call(t, app, "projects_delete", `{"workspace_id":"w","id":"missing"}`)), "[projects_delete] project missing not found")
	is.True(regexp.MustCompile(`^\[jobs_explode\] internal error \(ref \w+\)`).MatchString(text(call(t, app, "jobs_explode", ""))))
	is.Equal(text(call(t, app, "jobs_wait", "")), "[jobs_wait] timed out after 10ms; the operation may still complete on the server, so check its effect before retrying")
}

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
