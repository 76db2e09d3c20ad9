package tasks

import (
	"context"

	"github.com/vurb-go/vurb/internal/engine"
)

// inline tells that a call of tool by caller runs without a task, since
// the store refused one or could not be reached (err): a log line, and a TaskInline event for the
// observers (vurbotel counts them), so an operator sees the share bite.
func (s *taskServer) inline(ctx context.Context, tool, caller string, err error) {
	s.logger.Info("vurb: the task store did not take a task; the call runs without one and answers at once", "tool", tool, "caller", caller, "err", err.Error())
	if s.observer != nil {
		s.observer(ctx, engine.Event{Kind: engine.TaskInline, Time: s.now(), Name: tool})
	}
}
