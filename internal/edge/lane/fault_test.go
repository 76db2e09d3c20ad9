package lane

import (
	"context"
	"testing"

	"github.com/vurb-go/vurb/internal/edge/fault/faulttest"
	"github.com/vurb-go/vurb/internal/engine"
)

// A call that panics on the fast lane is answered as on every other path
// the edge runs one (the edge's TestServerAnswersAPanicAsEveryPath): the
// runtime's message with a reference from its sequence, and one log
// entry that carries the same reference and the stack.
func TestLaneAnswersAPanicAsEveryPathDoes(t *testing.T) {
	rt, log := faulttest.Runtime()
	_, err := (&Lane{rt: rt}).contained(context.Background(), faulttest.PanicRoute{}, laneRequest{name: "boom"}, &engine.Origin{})
	faulttest.Check(t, err, log, "PanicRoute")
}
