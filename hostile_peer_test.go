package vurb_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
)

// TestAttackPanickingKeyFunctionOnEveryPath: a KeyedBy function that
// panics (a token without the claim it reads) is answered as an internal
// error and logged with its stack on every path, a task's goroutine
// included, and the server serves the next call.
func TestAttackPanickingKeyFunctionOnEveryPath(t *testing.T) {
	is := is.New(t)
	var log syncBuffer
	app := vurb.New(vurb.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	tenant := vurb.PerCaller(1000, time.Minute).KeyedBy(func(_ context.Context, c *vurb.Caller) string {
		return c.Token.Extra["tenant"].(string) // panics without the claim
	})
	vurb.Query(app, "notes.list", func(context.Context, struct{}) (string, error) { return "notes", nil }).RateLimit(tenant)
	vurb.Mutation(app, "jobs.run", func(context.Context, struct{}) (string, error) { return "ran", nil }).Task().RateLimit(tenant)
	vurb.Query(app, "health.check", func(context.Context, struct{}) (string, error) { return "ok", nil })
	srv, _ := protectedServer(t, app, func(string) auth.TokenVerifier { return opaqueTokens(attackTokens) }, nil)

	tasks := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	out, _, err := postJSONRPC(srv.URL, "viewer-token", "2026-07-28", "tools/call", "jobs_run", `{"name":"jobs_run","arguments":{},`+tasks+`}`)
	is.NoErr(err)
	is.True(out.Error != nil || strings.Contains(string(out.Result), "internal error")) // the task's call: contained
	for _, p := range attackPaths(t, app) {
		text, isErr, err := p.call(t, "viewer-token", "notes_list", `{}`)
		is.True(err != nil || isErr)                          // p.name
		is.True(err != nil || strings.Contains(text, "ref ")) // an internal error with its reference
		text, _, err = p.call(t, "viewer-token", "health_check", `{}`)
		is.NoErr(err)
		is.Equal(text, "ok") // still serving
	}
	is.True(strings.Contains(log.String(), "panicked"))
	is.True(strings.Contains(log.String(), "stack="))
}

// TestAttackTemplateVariablesStayInTheirFolder: a variable that could climb
// out of a folder matches no resource, and the handler never sees it; a
// handler's plain error reaches the client as an internal error with a
// reference, never with its text (a server path) or JSON-RPC code 0.
func TestAttackTemplateVariablesStayInTheirFolder(t *testing.T) {
	is := is.New(t)
	var seen []string
	var mu sync.Mutex
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.ResourceTemplate(app, "files://{dir}/{name}.txt", "files", func(_ context.Context, vars map[string]string) (vurb.Contents, error) {
		mu.Lock()
		seen = append(seen, vars["dir"]+"|"+vars["name"])
		mu.Unlock()
		if vars["name"] == "broken" {
			return vurb.Contents{}, errors.New("open /srv/data/secret/broken.txt: permission denied")
		}
		return vurb.Contents{Text: "in " + vars["dir"]}, nil
	})
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cs := connectVersion(t, version, app, nil)
		for _, uri := range []string{"files://../secret.txt", "files://./x.txt", "files://%2E%2E/secret.txt",
			"files://a%2Fb/x.txt", "files://a%5Cb/x.txt", `files://a\b/x.txt`, "files://%2e./x.txt"} {
			_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
			is.True(err != nil) // uri
		}
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "files://docs/readme.txt"})
		is.NoErr(err)
		is.Equal(res.Contents[0].Text, "in docs")
		_, err = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "files://docs/broken.txt"})
		var rpcErr *jsonrpc.Error
		is.True(errors.As(err, &rpcErr))
		is.Equal(rpcErr.Code, int64(jsonrpc.CodeInternalError))
		is.True(!strings.Contains(rpcErr.Message, "/srv/data"))
		is.True(strings.Contains(rpcErr.Message, "ref "))
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range seen {
		is.True(s == "docs|readme" || s == "docs|broken") // the handler saw no climbing value
	}
}

// TestAttackSubscriptionsAreBoundedAndReclaimed: a session subscribes to at
// most DefaultMaxSubscriptions resources, and what it subscribed to is
// reclaimed when it closes (the go-sdk kept every URI).
func TestAttackSubscriptionsAreBoundedAndReclaimed(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
	vurb.ResourceTemplate(app, "blobs://{id}", "blobs", func(context.Context, map[string]string) (vurb.Contents, error) {
		return vurb.Contents{Text: "x"}, nil
	})
	server := app.NewServer()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	ctx := context.Background()
	for s := range 10 {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		is.NoErr(err)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct,
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}) // subscriptions that outlive a request
		is.NoErr(err)
		for i := range vurb.DefaultMaxSubscriptions {
			uri := fmt.Sprintf("blobs://%d-%d-%s", s, i, strings.Repeat("x", 2000))
			is.NoErr(cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
		}
		err = cs.Subscribe(ctx, &mcp.SubscribeParams{URI: fmt.Sprintf("blobs://%d-over", s)})
		if err == nil || !strings.Contains(err.Error(), "its limit") {
			t.Fatalf("past the bound: %v", err)
		}
		err = cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "blobs://" + strings.Repeat("y", 4000)})
		is.True(err != nil) // a URI too long to keep
		cs.Close()
		_ = ss.Wait()
	}
	held := heap() - min(before, heap())
	deadline := time.Now().Add(5 * time.Second)
	for heap() > before+512<<10 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	after := int64(heap()) - int64(before)
	t.Logf("subscribed: %d KB more; after the sessions closed: %d KB", held>>10, after>>10)
	is.True(after < 512<<10)  // the 2 MB of URIs are reclaimed
	runtime.KeepAlive(server) // what the server keeps is measured, not the server collected
}
