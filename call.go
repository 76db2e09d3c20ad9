package vurb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/schema"
)

// Call runs the tool called name with args in-process, through the same
// pipeline a served call takes: route lookup, discriminator (grouped
// exposition), strict decoding and validation, the middleware chain, the
// handler, the result. It builds the app on first use.
//
// Mistakes a model can fix (bad arguments, an unknown action, a handler
// error, a timeout, a panic) are results with IsError set and a text that
// says what to do. The error return is for protocol failures: an unknown
// tool (a *jsonrpc.Error with code InvalidParams, as the MCP spec asks) or
// the caller's context being cancelled.
func (a *App) Call(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	r, ok := a.built().routes[name]
	if !ok {
		return nil, unknownTool(name)
	}
	return r.call(ctx, args, origin{})
}

// origin is what the transport knows about a call; empty in-process.
type origin struct {
	session       *mcp.ServerSession
	progressToken any
	// recheck is the grouped route whose endpoint quickPick chose; see
	// exec.
	recheck *route
}

func unknownTool(name string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(MsgUnknownTool, truncate(name, 128))}
}

// call picks the endpoint (grouped tools read the discriminator) and runs it.
func (r *route) call(ctx context.Context, args json.RawMessage, o origin) (*mcp.CallToolResult, error) {
	ep := r.single
	if ep == nil && r.tool.app.cfg.observer == nil {
		if ep = r.quickPick(args); ep != nil {
			o.recheck = r
		}
	}
	if ep == nil {
		var res *mcp.CallToolResult
		if ep, res = r.pick(args); res != nil {
			return res, nil
		}
	}
	return ep.call(ctx, args, o)
}

// quickPick finds the endpoint without scanning the whole document when the
// discriminator is its first key and its value a plain string, which is how
// clients write it (the schema lists it first). It proves nothing about the
// rest of the document; decoding does, and a call whose decoding fails is
// routed again through pick (see exec), so that what pick refuses at the
// tool's level (a repeated discriminator, malformed JSON) reads the same
// either way. With an observer it is not used: its events must not name an
// action that pick would not have reached.
func (r *route) quickPick(args []byte) *endpoint {
	if name, ok := schema.LeadingString(args, r.discriminator); ok {
		return r.actions[string(name)]
	}
	return nil
}

// pick reads the discriminator without decoding the rest of the arguments.
func (r *route) pick(args json.RawMessage) (*endpoint, *mcp.CallToolResult) {
	raw, found, err := schema.Lookup(args, r.discriminator, r.tool.app.cfg.limits)
	switch {
	case err != nil:
		return nil, Error("[" + r.tool.name + "] " + fmt.Sprintf(MsgInvalidArguments, err))
	case !found:
		return nil, Error(fmt.Sprintf(MsgDiscriminatorMissing, r.discriminator, r.available))
	case len(raw) == 0 || raw[0] != '"':
		return nil, Error(fmt.Sprintf(MsgDiscriminatorNotString, r.discriminator, jsonKind(raw), r.available))
	}
	if ep, ok := r.actions[string(raw[1:len(raw)-1])]; ok {
		return ep, nil
	}
	var name string
	if json.Unmarshal(raw, &name) == nil {
		if ep, ok := r.actions[name]; ok { // the key was sent with escapes
			return ep, nil
		}
	}
	return nil, Error(fmt.Sprintf(MsgUnknownAction, truncate(name, 64), r.available))
}

// outcome is what the handler goroutine hands back.
type outcome struct {
	res      *mcp.CallToolResult
	err      error
	panicked bool // or exited, or failed inside vurb: an internal error
	exited   bool // runtime.Goexit ended the goroutine that ran the chain
	alarm    bool // not an outcome: the deadline passed or the caller gave up (see waiter)
	late     bool // the handler returned after its context was done
}

// call is the hot path: decode and validate, then the precomposed chain
// under the endpoint's deadline, then the state-sync notice. With no
// observer it costs one nil check more than the pipeline itself.
func (ep *endpoint) call(ctx context.Context, args json.RawMessage, o origin) (*mcp.CallToolResult, error) {
	id := ep.app.nextID.Add(1)
	obs := ep.app.cfg.observer
	if obs == nil {
		res, outcome, err := ep.exec(ctx, args, o, id)
		if outcome == OutcomeOK && ep.sync.notice != "" {
			res = withNotice(res, ep.sync.notice)
		}
		return res, err
	}
	start := time.Now()
	rid := formatID(id) // once for all of the call's events
	obs(ctx, ep.event(CallStarted, rid, start))
	res, outcome, err := ep.exec(ctx, args, o, id)
	if outcome == OutcomeOK && ep.sync.notice != "" {
		res = withNotice(res, ep.sync.notice)
		e := ep.event(CacheInvalidated, rid, time.Now())
		e.Patterns = ep.sync.invalidates
		obs(ctx, e)
	}
	e := ep.event(CallFinished, rid, time.Now())
	e.Duration, e.Outcome = e.Time.Sub(start), outcome
	obs(ctx, e)
	return res, err
}

func (ep *endpoint) event(kind EventKind, id string, at time.Time) Event {
	return Event{Kind: kind, Time: at, Tool: ep.tool, Action: ep.action, Key: ep.key, Name: ep.name, RequestID: id}
}

// withNotice returns res with the invalidation notice as its first block,
// without touching the handler's own value.
func withNotice(res *mcp.CallToolResult, notice string) *mcp.CallToolResult {
	out := *res
	out.Content = append([]mcp.Content{&mcp.TextContent{Text: notice}}, res.Content...)
	return &out
}

// exec decodes, validates and runs the chain, and says how the call ended.
func (ep *endpoint) exec(ctx context.Context, args json.RawMessage, o origin, id uint64) (*mcp.CallToolResult, Outcome, error) {
	in, err := ep.decode(args, ep.opts)
	if err != nil {
		if o.recheck != nil {
			if _, res := o.recheck.pick(args); res != nil {
				return res, OutcomeValidation, nil
			}
		}
		return Error(ep.prefix + fmt.Sprintf(MsgInvalidArguments, err)), OutcomeValidation, nil
	}
	cc := newCallContext(ctx, time.Now().Add(ep.timeout), Call{
		Tool:          ep.tool,
		Action:        ep.action,
		Key:           ep.key,
		Name:          ep.name,
		Input:         in,
		Arguments:     args,
		id:            id,
		session:       o.session,
		progressToken: o.progressToken,
		app:           ep.app,
	})
	defer cc.end()

	if ep.app.cfg.inline {
		return ep.finish(ctx, cc, ep.run(cc))
	}
	// The chain runs on a worker goroutine so that a handler which ignores
	// its context cannot hold the call past its deadline. Such a handler
	// keeps running after the call has returned; its late result is dropped.
	wt := armWaiter(ctx, cc.deadline)
	w := startTask(task{ep: ep, cc: cc, done: wt.ch})
	out := <-wt.ch
	if !out.alarm {
		wt.release()
		if !out.exited {
			idleWorkers.Put(w)
		}
		return ep.finish(ctx, cc, out)
	}
	wt.disarm()
	// The alarm may have been queued just before the answer: an answer
	// given in time wins; one given after the deadline is dropped like any
	// late answer (finish sees it is late).
	if out, ok := wt.answer(); ok {
		if !out.exited {
			idleWorkers.Put(w)
		}
		return ep.finish(ctx, cc, out)
	}
	if ctx.Err() != nil {
		return nil, OutcomeCancelled, ctx.Err()
	}
	return Error(ep.prefix + fmt.Sprintf(MsgTimeout, ep.timeout)), OutcomeTimeout, nil
}

// pastDeadline reports whether ctx's deadline has passed. It reads the
// clock rather than ctx.Err(), which is set only when the runtime gets to
// the deadline's timer, later under load. time.Until reads only the
// monotonic clock when the deadline carries it, as vurb's do.
func pastDeadline(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && time.Until(d) <= 0
}

// run executes the chain and recovers a panic into an error result whose
// reference id joins it to the logged stack; the stack never reaches the
// client. It runs on a worker (see work) or, with WithInlineHandlers, on
// the caller's goroutine.
func (ep *endpoint) run(cc *callContext) (out outcome) {
	defer func() {
		if p := recover(); p != nil {
			out = ep.panicked(cc, p)
		}
	}()
	res, err := ep.handler(cc, &cc.call)
	return outcome{res: res, err: err, late: pastDeadline(cc)}
}

// exited is the outcome of a chain whose goroutine runtime.Goexit ended.
func (ep *endpoint) exited(cc *callContext) outcome {
	out := ep.panicked(cc, "the handler's goroutine exited (runtime.Goexit) before it returned")
	out.exited = true
	return out
}

// panicked logs a recovered panic with its stack and a reference id, and
// returns the generic error result the client sees.
func (ep *endpoint) panicked(cc *callContext, p any) outcome {
	ref := cc.call.RequestID()
	ep.app.cfg.logger.Error("vurb: handler panicked",
		"ref", ref, "tool", ep.tool, "action", ep.action, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	return outcome{res: Error(ep.prefix + fmt.Sprintf(MsgInternal, ref)), panicked: true}
}

// internal logs a failure inside vurb (a result it cannot encode) and
// returns the generic error result the client sees.
func (ep *endpoint) internal(cc *callContext, err error) *mcp.CallToolResult {
	ref := cc.call.RequestID()
	ep.app.cfg.logger.Error("vurb: internal error", "ref", ref, "tool", ep.tool, "action", ep.action, "err", err.Error())
	return Error(ep.prefix + fmt.Sprintf(MsgInternal, ref))
}

// finish turns the chain's outcome into the call's result.
func (ep *endpoint) finish(ctx context.Context, cc *callContext, out outcome) (*mcp.CallToolResult, Outcome, error) {
	switch {
	case out.panicked:
		return out.res, OutcomePanic, nil
	case out.late && ctx.Err() == nil:
		return Error(ep.prefix + fmt.Sprintf(MsgTimeout, ep.timeout)), OutcomeTimeout, nil
	case out.err == nil && out.res == nil:
		return &mcp.CallToolResult{Content: []mcp.Content{}}, OutcomeOK, nil
	case out.err == nil && out.res.IsError:
		return out.res, OutcomeHandler, nil
	case out.err == nil:
		return out.res, OutcomeOK, nil
	case ctx.Err() != nil:
		return nil, OutcomeCancelled, ctx.Err()
	case errors.Is(out.err, context.DeadlineExceeded) && cc.Err() != nil:
		return Error(ep.prefix + fmt.Sprintf(MsgTimeout, ep.timeout)), OutcomeTimeout, nil
	}
	if internal, ok := asInternal(out.err); ok {
		return ep.internal(cc, internal), OutcomePanic, nil
	}
	return Error(ep.prefix + out.err.Error()), OutcomeHandler, nil
}

// asInternal finds an internalError in err's chain. It is a function of
// its own so that the error path alone pays for errors.As's target.
func asInternal(err error) (internalError, bool) {
	var ie internalError
	ok := errors.As(err, &ie)
	return ie, ok
}

// jsonKind names the JSON kind of a raw value, for error texts.
func jsonKind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// truncate keeps echoed client text short: a 100 KB name is never sent back
// whole.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
