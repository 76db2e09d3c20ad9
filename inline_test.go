package vurb_test

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/matryer/is"
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
