package vurb

import (
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/internal/edge/tasks"
	"github.com/vurb-go/vurb/internal/engine"
)

// The root's own constants say what the engine and the edge use: a
// handler's RequireCapability(ctx, Sampling) asks what the client
// declared, and the capability the app declares for tasks is
// TasksExtension.
func TestRootConstantsMirrorTheEngines(t *testing.T) {
	is := is.New(t)
	is.Equal(string(Elicitation), string(engine.Elicitation))
	is.Equal(string(Sampling), string(engine.Sampling))
	is.Equal(string(Roots), string(engine.Roots))
	is.Equal(TasksExtension, tasks.TasksExtension)
}
