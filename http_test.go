package vurb_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

func httpClient(t *testing.T, endpoint string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-client", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint}, &mcp.ClientSessionOptions{ProtocolVersion: clientProtocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestHTTPHandler(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []vurb.ServeOption
	}{
		{"stateful", nil},
		{"stateless", []vurb.ServeOption{vurb.WithStateless()}},
		{"stateless json", []vurb.ServeOption{vurb.WithStateless(), vurb.WithJSONResponse()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			c := vurbtest.New(t, newFixture(), vurbtest.OverHTTP(), vurbtest.Serve(tc.opts...))
			is.Equal(len(c.Tools()), 12)
			is.Equal(c.CallText("projects_create", json.RawMessage(`{"workspace_id":"w","name":"Gemini"}`)), `{"id":"p2","name":"Gemini"}`)
			is.Equal(c.CallError("projects_create", json.RawMessage(`{"workspace_id":"w"}`)), "[projects_create] invalid arguments: name: is required")
		})
	}
}

// post sends a raw JSON-RPC initialize with the given headers.
func post(t *testing.T, url string, header map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestHTTPGuards(t *testing.T) {
	app := newFixture()
	open := httptest.NewServer(app.HTTPHandler())
	defer open.Close()
	hosts := httptest.NewServer(app.HTTPHandler(vurb.WithAllowedHosts("api.example.com"), vurb.WithAllowedOrigins("https://app.example.com")))
	defer hosts.Close()
	small := httptest.NewServer(app.HTTPHandler(vurb.WithMaxBodyBytes(512)))
	defer small.Close()
	hostOf := func(s *httptest.Server) string { return strings.TrimPrefix(s.URL, "http://") }

	for _, tc := range []struct {
		name   string
		url    string
		header map[string]string
		body   string
		status int
	}{
		{"plain request", open.URL, nil, initialize, http.StatusOK},
		{"same origin", open.URL, map[string]string{"Origin": open.URL}, initialize, http.StatusOK},
		{"cross origin refused", open.URL, map[string]string{"Origin": "http://evil.example.com"}, initialize, http.StatusForbidden},
		{"rebound host refused on loopback", open.URL, map[string]string{"Host": "evil.example.com"}, initialize, http.StatusForbidden},
		{"host not in allow-list", hosts.URL, map[string]string{"Host": hostOf(hosts)}, initialize, http.StatusForbidden},
		{"allowed origin, wrong host", hosts.URL, map[string]string{"Origin": "https://app.example.com"}, initialize, http.StatusForbidden},
		{"origin not in allow-list", hosts.URL, map[string]string{"Host": "api.example.com", "Origin": "http://evil.example.com"}, initialize, http.StatusForbidden},
		{"body too large", small.URL, nil, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 1024) + `"}}`, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(post(t, tc.url, tc.header, tc.body).StatusCode, tc.status)
		})
	}
}

func TestGracefulShutdown(t *testing.T) {
	is := is.New(t)
	app := vurb.New()
	started := make(chan struct{})
	var once sync.Once
	vurb.Action(app, "jobs.slow", func(ctx context.Context, _ noInput) (string, error) {
		once.Do(func() { close(started) })
		time.Sleep(300 * time.Millisecond) // in flight when shutdown begins
		return "finished", nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- app.ServeListener(ctx, ln, vurb.WithShutdownGrace(5*time.Second)) }()

	cs := httpClient(t, "http://"+ln.Addr().String()+"/mcp")
	answer := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := callRaw(t, cs, "jobs_slow", "")
		if err != nil {
			t.Error(err)
		}
		answer <- res
	}()
	<-started
	stop() // shut down while the call is in flight

	select {
	case res := <-answer:
		is.True(res != nil)
		is.Equal(text(res), "finished") // the accepted call got its answer
	case <-time.After(5 * time.Second):
		t.Fatal("the in-flight call was never answered")
	}
	select {
	case err := <-served:
		is.NoErr(err)
	case <-time.After(10 * time.Second):
		t.Fatal("ListenAndServe did not return after shutdown")
	}
	_, err = net.DialTimeout("tcp", ln.Addr().String(), time.Second)
	is.True(err != nil) // no longer accepting
}
