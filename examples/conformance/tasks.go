package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// The tools of the suite's tasks-* scenarios (the tasks extension,
// SEP-2663). Each is an ordinary vurb action declared with Task: a client
// that declares the extension gets a task and polls it; any other client is
// served as usual (or refused, for the task-only ones).

// SlowCompute is slow_compute's input.
type SlowCompute struct {
	Seconds float64 `json:"seconds" validate:"min=0,max=600" description:"How long to work, in seconds"`
	Label   string  `json:"label,omitempty" description:"A label echoed in the result"`
}

// DeleteFile is confirm_delete's input.
type DeleteFile struct {
	Filename string `json:"filename" validate:"required" description:"The file to delete"`
}

// Greeting is greet's input.
type Greeting struct {
	Name string `json:"name" validate:"required" description:"Who to greet"`
}

func declareTaskTools(app *vurb.App) {
	// A tool that is one action, with a one-word name: never a task.
	vurb.Query(app, "greet", func(_ context.Context, in Greeting) (string, error) {
		return "Hello, " + in.Name + "!", nil
	}).Describe("Greets by name, synchronously")

	vurb.Query(app, "slow.compute", func(ctx context.Context, in SlowCompute) (string, error) {
		if err := vurb.SetTaskStatus(ctx, fmt.Sprintf("computing for %gs", in.Seconds)); err != nil && !errors.Is(err, vurb.ErrNoTask) {
			return "", err
		}
		if err := sleep(ctx, time.Duration(in.Seconds*float64(time.Second))); err != nil {
			return "", err
		}
		return fmt.Sprintf("computed %q in %gs", in.Label, in.Seconds), nil
	}).Describe("Works for the given number of seconds, as a task").Task().Timeout(10 * time.Minute)

	vurb.Action(app, "failing.job", func(ctx context.Context, _ struct{}) (string, error) {
		if err := sleep(ctx, time.Second); err != nil {
			return "", err
		}
		return "", errors.New("the job failed, as it always does")
	}).Describe("Runs only as a task, and always ends with a tool error").Task(vurb.WithTaskRequired())

	vurb.Action(app, "protocol.error_job", func(context.Context, struct{}) (string, error) {
		// A JSON-RPC error, not a tool error: the task fails with it.
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the job crashed"}
	}).Describe("Runs as a task that fails with a protocol error").Task()

	vurb.Mutation(app, "confirm.delete", func(ctx context.Context, in DeleteFile) (string, error) {
		if err := confirm(ctx, "confirm", "Delete "+in.Filename+"?"); err != nil {
			return "", err
		}
		return "deleted " + in.Filename, nil
	}).Describe("Asks for confirmation while it runs as a task, then deletes the file").Task()

	vurb.Action(app, "multi.input", func(ctx context.Context, _ struct{}) (string, error) {
		// Both asked in one round: the task waits on the two at once.
		if err := errors.Join(confirm(ctx, "first", "First question?"), confirm(ctx, "second", "Second question?")); err != nil {
			return "", err
		}
		return "both inputs received", nil
	}).Describe("Asks two questions at once while it runs as a task").Task()

	vurb.Action(app, "test.tool_with_task", func(ctx context.Context, _ struct{}) (string, error) {
		// Asked before the task exists: the request's own rounds.
		who, err := vurb.Ask[UserName](ctx, "user_name", "What is your name?")
		if err != nil {
			return "", err
		}
		if err := vurb.StartTask(ctx); err != nil && !errors.Is(err, vurb.ErrNoTask) {
			return "", err
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return "", err
		}
		return "Hello, " + who.Name + "! (asked first, then worked as a task)", nil
	}).Describe("Asks for a name, then goes on as a task").Task(vurb.WithTaskRequired(), vurb.WithTaskDeferred())
}

// confirm asks a yes-or-no question and fails unless the user accepts.
func confirm(ctx context.Context, id, message string) error {
	res, err := vurb.AskElicitation(ctx, id, &mcp.ElicitParams{Message: message,
		RequestedSchema: object(props{"confirm": {"type": "boolean", "description": "Go on?"}}, "confirm")})
	if err != nil {
		return err
	}
	if res.Action != "accept" {
		return fmt.Errorf("the user answered %q with %s", id, res.Action)
	}
	return nil
}
