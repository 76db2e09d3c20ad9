package vurbtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A CallOption shapes one request: a tool call, a prompt, a resource read.
type CallOption interface {
	applyCall(*callConfig)
}

type callConfig struct {
	ctx        context.Context
	cancelWhen <-chan struct{}
	meta       mcp.Meta
}

type callOptionFunc func(*callConfig)

func (f callOptionFunc) applyCall(c *callConfig) { f(c) }

// ProgressToken sends token (a string or an integer) with the request, so
// the server may report progress on it; Client.Progress returns what it
// reports.
func ProgressToken(token any) CallOption {
	return Meta(mcp.Meta{"progressToken": token})
}

// Meta adds m to the request's _meta. Later keys win.
func Meta(m mcp.Meta) CallOption {
	return callOptionFunc(func(c *callConfig) {
		if c.meta == nil {
			c.meta = mcp.Meta{}
		}
		maps.Copy(c.meta, m)
	})
}

// CancelWhen cancels the request once ch is closed, as a client does when
// its user gives up: the go-sdk client returns context.Canceled at once
// and sends notifications/cancelled, which cancels the handler's context
// when the call has a session (in memory, either revision; over HTTP with
// a session). Over HTTP without one (vurb.WithStateless, or a 2026-07-28
// request) the notification has no session to reach, and the handler's
// context ends only if the server ties the call to its HTTP request. Close
// ch from the handler to cancel mid-call.
func CancelWhen(ch <-chan struct{}) CallOption {
	return callOptionFunc(func(c *callConfig) { c.cancelWhen = ch })
}

// Context sends the request under ctx (with its deadline, values and
// cancellation) instead of context.Background(); the Client's Timeout
// still bounds it.
func Context(ctx context.Context) CallOption {
	return callOptionFunc(func(c *callConfig) { c.ctx = ctx })
}

// request is one request's context and _meta.
type request struct {
	c      *Client
	parent context.Context // the test's context: its end is not a timeout
	ctx    context.Context // parent bounded by the client's timeout
	stop   []context.CancelFunc
	meta   mcp.Meta
}

func (c *Client) begin(opts []CallOption) *request {
	var cc callConfig
	for _, o := range opts {
		o.applyCall(&cc)
	}
	r := &request{c: c, parent: cc.ctx, meta: cc.meta}
	if r.parent == nil {
		r.parent = context.Background()
	}
	if ch := cc.cancelWhen; ch != nil {
		var cancel context.CancelFunc
		r.parent, cancel = context.WithCancel(r.parent)
		r.stop = append(r.stop, cancel)
		go func(done <-chan struct{}) {
			select {
			case <-ch:
				cancel()
			case <-done:
			}
		}(r.parent.Done())
	}
	var cancel context.CancelFunc
	r.ctx, cancel = context.WithTimeout(r.parent, c.cfg.timeout)
	r.stop = append(r.stop, cancel)
	if c.cfg.logLevel != "" && c.sessionless() { // 2026-07-28 asks for logs per request
		r.meta = maps.Clone(r.meta)
		if r.meta == nil {
			r.meta = mcp.Meta{}
		}
		if _, set := r.meta[mcp.MetaKeyLogLevel]; !set {
			r.meta[mcp.MetaKeyLogLevel] = c.cfg.logLevel
		}
	}
	return r
}

// end releases the request's contexts.
func (r *request) end() {
	for _, cancel := range r.stop {
		cancel()
	}
}

// explain says so when err is the client's own timeout, not the test's
// deadline or cancellation, nor the server's answer.
func (r *request) explain(err error) error {
	if err != nil && errors.Is(r.ctx.Err(), context.DeadlineExceeded) && r.parent.Err() == nil {
		return fmt.Errorf("no answer within %v (vurbtest.Timeout): %w", r.c.cfg.timeout, err)
	}
	return err
}

// encode is args as the JSON a tool call carries; nil sends no arguments.
func (c *Client) encode(what string, args any) json.RawMessage {
	c.t.Helper()
	if args == nil {
		return nil
	}
	data, err := json.Marshal(args)
	if err != nil {
		c.t.Fatalf("vurbtest: %s: the arguments do not encode to JSON: %v", what, err)
	}
	return data
}

// short is data for a failure message, cut at 200 bytes.
func short(data []byte) string {
	const max = 200
	if len(data) > max {
		return string(data[:max]) + "…"
	}
	return string(data)
}
