package vurb_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// Two anonymous clients behind one proxy (the test's loopback address),
// each named in X-Forwarded-For, with a share of one session each: with
// the proxy trusted, each keeps its own session; with it not trusted, a
// forged header changes nothing and the two are one caller, the second
// session closing the first.
func TestTrustedProxyNamesTheCallerForQuotas(t *testing.T) {
	for _, c := range []struct {
		name    string
		trusted []string
		both    bool // both sessions live at the end
	}{
		{"proxy trusted", []string{"127.0.0.1"}, true},
		{"proxy not trusted", []string{"10.0.0.0/8"}, false},
		{"no option", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			app := vurb.New(vurb.WithLogger(slog.New(slog.DiscardHandler)))
			vurb.Query(app, "docs.read", func(context.Context, struct{}) (string, error) { return "docs", nil })
			opts := []vurb.ServeOption{vurb.WithMaxSessionsPerCaller(1)}
			if c.trusted != nil {
				opts = append(opts, vurb.WithTrustedProxies(c.trusted...))
			}
			srv := httptest.NewServer(app.HTTPHandler(opts...))
			defer srv.Close()
			open := func(client string) string {
				req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(initializeBody))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("X-Forwarded-For", client)
				resp, err := http.DefaultClient.Do(req)
				is.NoErr(err)
				defer resp.Body.Close()
				_, _ = io.Copy(io.Discard, resp.Body)
				is.Equal(resp.StatusCode, http.StatusOK)
				return resp.Header.Get("Mcp-Session-Id")
			}
			first, second := open("203.0.113.7"), open("198.51.100.1")
			is.Equal(sessionStatus(t, srv.URL, second), http.StatusAccepted)
			if c.both {
				is.Equal(sessionStatus(t, srv.URL, first), http.StatusAccepted)
			} else {
				is.Equal(sessionStatus(t, srv.URL, first), http.StatusNotFound)
			}
		})
	}
}
