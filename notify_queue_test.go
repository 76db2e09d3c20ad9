package vurb_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// TestStalledSubscriberDelaysNoOne subscribes a client that then stops
// reading, and a normal one: before the per-subscriber queues, the first
// notification blocked NotifyResourceUpdated (29.6 s over HTTP) and every
// other subscriber with it.
func TestStalledSubscriberDelaysNoOne(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var log syncBuffer
	app := vurb.New(vurb.WithNotifyBuffer(4), vurb.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	vurb.Resource(app, "res://news", "news", func(context.Context) (vurb.Contents, error) { return vurb.Contents{Text: "news"}, nil })
	server := app.NewServer()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// The stalled subscriber speaks raw JSON-RPC, subscribes, and reads no more.
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	is.NoErr(err)
	defer ss.Close()
	stalled, err := ct.Connect(ctx)
	is.NoErr(err)
	defer stalled.Close()
	send := func(id float64, method, params string) {
		req := &jsonrpc.Request{Method: method, Params: json.RawMessage(params)}
		if id > 0 {
			req.ID, _ = jsonrpc.MakeID(id)
		}
		is.NoErr(stalled.Write(ctx, req))
		if id > 0 {
			_, err := stalled.Read(ctx)
			is.NoErr(err)
		}
	}
	send(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stalled","version":"1"}}`)
	send(0, "notifications/initialized", `{}`)
	send(2, "resources/subscribe", `{"uri":"res://news"}`)

	// The normal subscriber.
	updates := make(chan string, 16)
	st2, ct2 := mcp.NewInMemoryTransports()
	ss2, err := server.Connect(ctx, st2, nil)
	is.NoErr(err)
	defer ss2.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "normal", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updates <- r.Params.URI },
	}).Connect(ctx, ct2, nil)
	is.NoErr(err)
	defer cs.Close()
	is.NoErr(cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "res://news"}))

	// The subscription may settle after Subscribe returns (the
	// subscriptions/listen stream of the new revision): wait for a first
	// notification to reach the normal subscriber.
	for settled := false; !settled; {
		is.NoErr(app.NotifyResourceUpdated(ctx, "res://news"))
		select {
		case <-updates:
			settled = true
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal("the normal subscriber never got a notification")
		}
	}
	for len(updates) > 0 {
		<-updates
	}

	for i := range 10 {
		start := time.Now()
		nctx, ncancel := context.WithTimeout(ctx, time.Second)
		is.NoErr(app.NotifyResourceUpdated(nctx, "res://news"))
		ncancel()
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Fatalf("notification %d took %s", i, d)
		}
		select {
		case uri := <-updates:
			is.Equal(uri, "res://news")
		case <-time.After(2 * time.Second):
			t.Fatalf("notification %d did not reach the normal subscriber", i)
		}
	}
	// The stalled one's buffer (4) is full: what does not fit is dropped, and logged.
	is.True(strings.Contains(log.String(), "a subscriber is not reading its notifications"))
}
