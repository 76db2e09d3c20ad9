package tasks

import (
	"context"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/internal/edge/fault/faulttest"
	"github.com/vurb-go/vurb/internal/engine"
)

// TestTaskAnswersAPanicAsEveryPath holds a task's goroutine to the edge's
// one scheme (fault.Panicked): the runtime's message with a reference
// from its sequence, and one log entry that carries the same reference.
func TestTaskAnswersAPanicAsEveryPath(t *testing.T) {
	rt, log := faulttest.Runtime()
	e := &execution{s: &taskServer{rt: rt}, route: taskRoute{route: faulttest.PanicRoute{}}, ctx: context.Background()}
	_, err := e.run(nil, &engine.Origin{})
	faulttest.Check(t, err, log, "PanicRoute")
	is.New(t).True(strings.Contains(log.String(), `"ref":"`+engine.FormatID(1)+`"`)) // the runtime's sequence, as every path's
}
