package vurb_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
	"github.com/vurb-go/vurb/workflow"
)

// wizardApp is a sign-up wizard keyed by session: intro, then details,
// then done; status runs in every state.
func wizardApp() *vurb.App {
	m := workflow.New("signup", "intro").
		On("intro", "begin", "details").
		On("details", "finish", "done").
		Final("done").
		BySession()
	app := vurb.New()
	w := app.Tool("wizard")
	vurb.Action(w, "begin", func(context.Context, struct{}) (string, error) { return "begun", nil }).When(m, "intro").Fires("begin")
	vurb.Action(w, "finish", func(ctx context.Context, _ struct{}) (string, error) {
		run, _ := workflow.From(ctx)
		return "finished from " + run.State(), nil
	}).When(m, "details").Fires("finish")
	vurb.Query(w, "status", func(ctx context.Context, _ struct{}) (string, error) {
		run, _ := workflow.From(ctx)
		return run.State(), nil
	}).When(m, "intro", "details", "done")
	vurb.Query(app, "help", func(context.Context, struct{}) (string, error) { return "help", nil })
	return app
}

// TestWorkflowBySessionFollowsTheSession: a session's list hides what its
// instance's state forbids and changes with each move, announced to it
// alone by notifications/tools/list_changed; another session keeps its
// own instance and list.
func TestWorkflowBySessionFollowsTheSession(t *testing.T) {
	for _, p := range []struct {
		name, version string
		noLane        bool
	}{{"in memory", "", false}, {"http session", "2025-11-25", false}, {"http session, go-sdk", "2025-11-25", true}} {
		t.Run(p.name, func(t *testing.T) {
			is := is.New(t)
			app := wizardApp()
			changed := make(chan struct{}, 8)
			opts := &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }}
			var one, two *mcp.ClientSession
			if p.version == "" {
				one, two = connect(t, app, opts), connect(t, app, nil)
			} else {
				var serve []vurb.ServeOption
				if p.noLane {
					serve = append(serve, vurb.WithFastLane(false))
				}
				srv := httptest.NewServer(app.HTTPHandler(serve...))
				t.Cleanup(srv.Close)
				one, two = workflowHTTPClient(t, srv.URL, p.version, opts), workflowHTTPClient(t, srv.URL, p.version, nil)
			}
			is.Equal(sortedNames(t, one), []string{"help", "wizard_begin", "wizard_status"})
			text, isErr := flowCall(t, one, "wizard_finish", map[string]any{})
			is.True(isErr) // hidden, and refused when called anyway
			is.True(strings.Contains(text, `this signup workflow instance is in state "intro"`))
			is.True(strings.Contains(text, `wizard_begin (moves it to "details")`))

			text, isErr = flowCall(t, one, "wizard_begin", map[string]any{})
			is.True(!isErr)
			is.Equal(text, "begun")
			select {
			case <-changed:
			case <-time.After(5 * time.Second):
				t.Fatal("no notifications/tools/list_changed after the move")
			}
			is.Equal(sortedNames(t, one), []string{"help", "wizard_finish", "wizard_status"})
			is.Equal(sortedNames(t, two), []string{"help", "wizard_begin", "wizard_status"}) // its own instance
			text, _ = flowCall(t, two, "wizard_status", map[string]any{})
			is.Equal(text, "intro")

			text, isErr = flowCall(t, one, "wizard_finish", map[string]any{})
			is.True(!isErr)
			is.Equal(text, "finished from details")
			<-changed
			is.Equal(sortedNames(t, one), []string{"help", "wizard_status"})
			text, isErr = flowCall(t, one, "wizard_status", map[string]any{})
			is.True(!isErr)
			is.Equal(text, "done")
			select {
			case <-changed:
				t.Fatal("a call that moved nothing announced a change")
			case <-time.After(50 * time.Millisecond):
			}
		})
	}
}

// TestWorkflowBySessionRefusesASessionlessRequest: a request without a
// session of its own (a sessionless one, or one the go-sdk's stateless
// handler serves, lanes on or off) has no instance to gate, and is told
// how to call.
func TestWorkflowBySessionRefusesASessionlessRequest(t *testing.T) {
	for _, p := range workflowPaths {
		if p.version == "" || !p.stateless && p.version != vurbtest.Sessionless {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			is := is.New(t)
			cs := workflowClient(t, wizardApp(), p.version, p.stateless, p.noLane, nil)
			text, isErr := flowCall(t, cs, "wizard_begin", map[string]any{})
			is.True(isErr)
			is.True(strings.Contains(text, `which follows a session, and this request has none`))
			is.Equal(len(sortedNames(t, cs)), 4) // a sessionless list does not vary
		})
	}
}

func sortedNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	names := listNames(t, cs)
	slices.Sort(names)
	return names
}

func workflowHTTPClient(t *testing.T, url, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "workflow", Version: "1"}, opts).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
