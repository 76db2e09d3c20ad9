package observe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
)

// An observer sees every call end, with its outcome: here counted by
// outcome, beside Slog's log lines.
func Example() {
	outcomes := map[observe.Outcome]int{}
	count := func(_ context.Context, e observe.Event) {
		if e.Kind == observe.CallFinished {
			outcomes[e.Outcome]++
		}
	}
	app := vurb.New(vurb.WithObserver(count), vurb.WithObserver(observe.Slog(slog.New(slog.DiscardHandler))))
	vurb.Query(app, "greet", func(_ context.Context, in struct {
		Name string `json:"name" validate:"required"`
	}) (string, error) {
		return "hello " + in.Name, nil
	})
	ctx := context.Background()
	_, _ = app.Call(ctx, "greet", json.RawMessage(`{"name":"Ada"}`))
	_, _ = app.Call(ctx, "greet", json.RawMessage(`{}`))
	fmt.Println(outcomes[observe.OutcomeOK], outcomes[observe.OutcomeValidation])
	// Output: 1 1
}
