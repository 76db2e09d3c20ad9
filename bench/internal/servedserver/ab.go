package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/schema"
)

// abContender is vurb with some hot-path mechanisms switched to their plain
// alternative, for the served A/B of issue #12 (temporary): "vurb+" then
// any of ctx (eager context.WithDeadline), go (a fresh goroutine per call),
// wait (a select instead of the pooled waiter), std (the standard decoder),
// plain (all four), inline (WithInlineHandlers) and mw100 (100 pass-through
// middleware layers), joined by "+".
func abContender(name string) (contender, error) {
	var opts []vurb.Option
	layers := 0
	for _, tok := range strings.Split(strings.TrimPrefix(name, "vurb+"), "+") {
		switch tok {
		case "ctx":
			engine.AB.Context = true
		case "go":
			engine.AB.Goroutine = true
		case "wait":
			engine.AB.Wait = true
		case "std":
			schema.NoFast = true
		case "plain":
			engine.AB.Context, engine.AB.Goroutine, engine.AB.Wait, schema.NoFast = true, true, true, true
		case "inline":
			opts = append(opts, vurb.WithInlineHandlers())
		case "mw100":
			layers = 100
		case "base":
		default:
			return contender{}, fmt.Errorf("unknown A/B switch %q in %q", tok, name)
		}
	}
	build := func() *vurb.App {
		app := newVurb(opts...)
		for range layers {
			app.Use(passThrough)
		}
		return app
	}
	return contender{
		http: func(stateless bool) http.Handler {
			if stateless {
				return build().HTTPHandler(vurb.Stateless())
			}
			return build().HTTPHandler()
		},
		stdio:       func(ctx context.Context) error { return build().Serve(ctx, vurb.Stdio()) },
		sessionless: func() http.Handler { return build().HTTPHandler() },
	}, nil
}

// passThrough is a middleware layer that only calls next, as the bench
// package's.
func passThrough(next vurb.Handler) vurb.Handler {
	return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) { return next(ctx, c) }
}
