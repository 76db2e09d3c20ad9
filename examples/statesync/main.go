// Command statesync is a sprint and task tracker that shows vurb's state
// sync: the model is told which answers it may reuse (Cache-Control in the
// tool descriptions) and which earlier answers a change made stale (a
// System line in the result of the call that changed them).
//
//	go run ./examples/statesync              # stdio
//	go run ./examples/statesync -http :8080  # http://localhost:8080/mcp
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
)

// Tracker is an in-memory sprint board, safe for concurrent use.
type Tracker struct {
	mu      sync.Mutex
	sprints []string
	tasks   map[string]string // task → status
}

type CreateSprint struct {
	Name string `json:"name" validate:"required,min=2,max=40" description:"Sprint name"`
}

type UpdateTask struct {
	Task   string `json:"task" validate:"required" description:"Task ID"`
	Status string `json:"status" validate:"required,oneof=todo doing done" description:"New status"`
}

func (t *Tracker) listSprints(context.Context, struct{}) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.sprints, ", "), nil
}

func (t *Tracker) createSprint(_ context.Context, in CreateSprint) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sprints = append(t.sprints, in.Name)
	return "created sprint " + in.Name, nil
}

func (t *Tracker) listTasks(context.Context, struct{}) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := make([]string, 0, len(t.tasks))
	for task, status := range t.tasks {
		lines = append(lines, task+": "+status)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}

func (t *Tracker) updateTask(_ context.Context, in UpdateTask) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.tasks[in.Task]; !ok {
		return "", fmt.Errorf("task %q not found; list tasks to see their ids", in.Task)
	}
	t.tasks[in.Task] = in.Status
	return in.Task + " is now " + in.Status, nil
}

func listStatuses(context.Context, struct{}) (string, error) { return "todo, doing, done", nil }

// NewApp declares the tracker. Policies speak of canonical dotted keys, so
// they hold in either exposition.
func NewApp(opts ...vurb.Option) *vurb.App {
	t := &Tracker{sprints: []string{"Sprint 1"}, tasks: map[string]string{"T-1": "todo", "T-2": "doing"}}
	app := vurb.New(append([]vurb.Option{
		vurb.WithName("statesync"),
		vurb.WithVersion("1.0.0"),
		vurb.WithPolicies(
			vurb.Policy{Match: "meta.**", CacheControl: vurb.Immutable},
			vurb.Policy{Match: "tasks.update", Invalidates: []string{"tasks.*", "sprints.*"}},
		),
	}, opts...)...)
	vurb.Query(app, "meta.statuses", listStatuses).Describe("List the task statuses.")
	vurb.Query(app, "sprints.list", t.listSprints).Describe("List sprints.").Stale()
	vurb.Action(app, "sprints.create", t.createSprint).Describe("Create a sprint.").Invalidates("sprints.*")
	vurb.Query(app, "tasks.list", t.listTasks).Describe("List tasks with their status.").Stale()
	vurb.Action(app, "tasks.update", t.updateTask).Describe("Change a task's status.")
	return app
}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// Every call, and every invalidation, is logged to stderr.
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	app := NewApp(vurb.WithLogger(logger), vurb.WithObserver(observe.Slog(logger)))
	var err error
	if *addr == "" {
		err = app.Serve(ctx, vurb.Stdio())
	} else {
		log.Printf("statesync: serving MCP at http://%s/mcp", *addr)
		err = app.ListenAndServe(ctx, *addr)
	}
	if err != nil {
		log.Fatal(err)
	}
}
