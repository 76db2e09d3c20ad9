package engine

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AB switches hot-path mechanisms to their plain alternatives, for the
// served A/B of issue #12 (bench/internal/servedserver sets it before it
// builds its app). Temporary: removed once the figures are in.
var AB struct {
	Context   bool // an eager context.WithDeadline instead of the lazy one
	Goroutine bool // a fresh goroutine per call instead of a pooled worker
	Wait      bool // a select on the answer, a timer and ctx.Done instead of a pooled waiter
}

// execAB is exec's hand-off with AB's alternatives.
func (ep *Endpoint) execAB(ctx context.Context, cc *callContext) (*mcp.CallToolResult, Outcome, error) {
	var ch chan outcome
	var wt *waiter
	if AB.Wait {
		ch = make(chan outcome, 1)
	} else {
		wt = armWaiter(ctx, cc.deadline)
		ch = wt.ch
	}
	var w *worker
	if AB.Goroutine {
		go runFresh(ep, cc, ch)
	} else {
		w = startTask(task{ep: ep, cc: cc, done: ch})
	}
	keep := func(out outcome) {
		if w != nil && !out.exited {
			idleWorkers.Put(w)
		}
	}
	if AB.Wait {
		if AB.Context {
			select {
			case out := <-ch:
				keep(out)
				return ep.finish(ctx, cc, out)
			case <-cc.Done():
			}
		} else {
			timer := time.NewTimer(time.Until(cc.deadline))
			select {
			case out := <-ch:
				timer.Stop()
				keep(out)
				return ep.finish(ctx, cc, out)
			case <-timer.C:
			case <-ctx.Done():
				timer.Stop()
			}
		}
		select {
		case out := <-ch:
			keep(out)
			return ep.finish(ctx, cc, out)
		default:
		}
	} else {
		out := <-ch
		if !out.alarm {
			wt.release()
			keep(out)
			return ep.finish(ctx, cc, out)
		}
		wt.disarm()
		if out, ok := wt.answer(); ok {
			keep(out)
			return ep.finish(ctx, cc, out)
		}
	}
	ep.abandon(ctx, cc)
	if ctx.Err() != nil {
		return nil, OutcomeCancelled, ctx.Err()
	}
	return ep.timedOut(), OutcomeTimeout, nil
}

// runFresh runs one call on a goroutine of its own and answers on done,
// as exited when runtime.Goexit ended it.
func runFresh(ep *Endpoint, cc *callContext, done chan<- outcome) {
	answered := false
	defer func() {
		if !answered {
			ep.release(cc)
			done <- ep.exited(cc)
		}
	}()
	out := ep.run(cc)
	answered = true
	ep.release(cc)
	done <- out
}
