package vurb_test

import (
	"bytes"
	"context"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/observe"
)

// TestRequestIDEverywhere follows one call's id through middleware, the
// handler's logger and the observer's events.
func TestRequestIDEverywhere(t *testing.T) {
	is := is.New(t)
	var logs bytes.Buffer
	var fromMiddleware string
	var fromEvents []string
	app := vurb.New(
		vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))),
		vurb.WithObserver(func(_ context.Context, e observe.Event) {
			if e.Kind == observe.CallStarted || e.Kind == observe.CallFinished {
				fromEvents = append(fromEvents, e.RequestID)
			}
		}),
	)
	app.Use(func(next vurb.Handler) vurb.Handler {
		return func(ctx context.Context, c *vurb.Call) (*mcp.CallToolResult, error) {
			fromMiddleware = c.RequestID()
			return next(ctx, c)
		}
	})
	vurb.Query(app, "docs.search", func(ctx context.Context, in Search) (string, error) {
		vurb.Logger(ctx).Info("searching", "query", in.Query)
		return "found", nil
	})
	call(t, app, "docs_search", `{"query":"go"}`)
	call(t, app, "docs_search", `{"query":"rust"}`)

	m := regexp.MustCompile(`request_id=(\w+) tool=docs action=search query=rust`).FindStringSubmatch(logs.String())
	is.True(m != nil) // the handler's logger has the call bound
	is.Equal(m[1], fromMiddleware)
	is.Equal(fromEvents[2:], []string{m[1], m[1]}) // the second call's start and finish
	is.True(fromEvents[0] != fromEvents[2])        // each call has its own
}

// TestLoggerFromSeveralGoroutines is a handler that logs from goroutines
// of its own at once, as a fan-out over several back ends does. Under -race
// it fails if the call's logger is made without synchronisation.
func TestLoggerFromSeveralGoroutines(t *testing.T) {
	is := is.New(t)
	var logs syncBuffer
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	const workers = 8
	vurb.Query(app, "docs.fanout", func(ctx context.Context, in Search) (string, error) {
		var wg sync.WaitGroup
		for i := range workers {
			wg.Go(func() { vurb.Logger(ctx).Info("part", "n", i) })
		}
		wg.Wait()
		return "done", nil
	})
	for range 20 {
		call(t, app, "docs_fanout", `{"query":"go"}`)
	}
	is.Equal(strings.Count(logs.String(), "msg=part"), 20*workers)
	ids := regexp.MustCompile(`request_id=(\w+)`).FindAllStringSubmatch(logs.String(), -1)
	perCall := map[string]int{}
	for _, m := range ids {
		perCall[m[1]]++
	}
	is.Equal(len(perCall), 20) // every line carries its own call's id
}

func TestLoggerOutsideACall(t *testing.T) {
	is.New(t).Equal(vurb.Logger(context.Background()), slog.Default())
}

func BenchmarkCallObserver(b *testing.B) {
	for _, tc := range []struct {
		name string
		opts []vurb.Option
	}{
		{"none", nil},
		{"observer", []vurb.Option{vurb.WithObserver(func(context.Context, observe.Event) {})}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			app, name, args := hotApp(vurb.Flat, tc.opts...)
			benchCalls(b, app, name, args)
		})
	}
}
