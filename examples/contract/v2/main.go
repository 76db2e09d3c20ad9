// Command v2 is release 2 of the task server of examples/contract/v1: its
// tasks.create requires a project_id, which release 1 did not know, the
// change a client's code and a model's prompts break on. The pair shows the
// contract workflow of the vurb command:
//
//	vurb manifest "go run ./examples/contract/v1" -o vurb.manifest.json
//	vurb diff vurb.manifest.json "go run ./examples/contract/v2"   # exits 1
//
// Both publish their manifest (App.PublishManifest), so vurb inspect shows
// their tools in both expositions. They serve stdio by default and
// streamable HTTP at http://ADDR/mcp with -http ADDR.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/vurb-go/vurb"
)

// Task is what the server stores.
type Task struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// TaskList is the list action's result.
type TaskList struct {
	Tasks []Task `json:"tasks"`
}

// ListTasks filters the list.
type ListTasks struct {
	Limit *int `json:"limit,omitempty" validate:"omitempty,min=1,max=100" description:"Maximum number of tasks"`
}

// CreateTask is release 2's input: a title and, new and required, a project.
type CreateTask struct {
	Title     string `json:"title" validate:"required,min=1,max=200" description:"What to do"`
	ProjectID string `json:"project_id" validate:"required" description:"Project the task belongs to"`
}

// DeleteTask names the task to delete.
type DeleteTask struct {
	ID string `json:"id" validate:"required" description:"ID of the task"`
}

// NewApp declares release 2.
func NewApp() *vurb.App {
	app := vurb.New(vurb.WithName("tasks"), vurb.WithVersion("2.0.0"))
	userFacing := app.Category("user-facing").Describe("What end users reach")
	tasks := app.Tool("tasks").Describe("Task tracking").In(userFacing)
	vurb.Query(tasks, "list", func(context.Context, ListTasks) (TaskList, error) {
		return TaskList{Tasks: []Task{}}, nil
	}).Describe("List tasks")
	vurb.Action(tasks, "create", func(_ context.Context, in CreateTask) (Task, error) {
		return Task{ID: "t1", Title: in.Title}, nil
	}).Describe("Create a task")
	vurb.Mutation(tasks, "delete", func(_ context.Context, in DeleteTask) (string, error) {
		return "deleted " + in.ID, nil
	}).Describe("Delete a task")
	app.PublishManifest()
	return app
}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	app := NewApp()
	var err error
	if *addr == "" {
		err = app.Serve(ctx, vurb.Stdio())
	} else {
		err = app.ListenAndServe(ctx, *addr)
	}
	if err != nil {
		log.Fatal(err)
	}
}
