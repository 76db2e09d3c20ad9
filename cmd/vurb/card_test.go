package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/matryer/is"
	vurbapp "github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/manifest"
	"github.com/vurb-go/vurb/servercard"
)

// cardedServer serves an app with its server card on at srv.URL/mcp.
func cardedServer(t *testing.T, version string) string {
	t.Helper()
	app := vurbapp.New(vurbapp.WithName("com.example/weather"), vurbapp.WithVersion(version))
	vurbapp.Query(app, "forecast.get", func(context.Context, struct{}) (string, error) { return "sunny", nil })
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	t.Cleanup(srv.Close)
	srv.Config.Handler = app.HTTPHandler(vurbapp.WithServerCard(servercard.Options{Endpoint: srv.URL + "/mcp", Description: "Forecasts"}))
	return srv.URL + "/mcp"
}

// TestInspectShowsTheServerCard: inspect reads the card beside the
// endpoint and shows it; the manifest records it.
func TestInspectShowsTheServerCard(t *testing.T) {
	is := is.New(t)
	url := cardedServer(t, "1.2.0")
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"inspect", url, "-q", "-timeout", "20s"}, &out, &errOut)
	is.Equal(code, 0)
	is.True(strings.Contains(out.String(), "server card: com.example/weather 1.2.0 · Forecasts"))
	is.True(strings.Contains(out.String(), "  streamable-http "+url+" · MCP 2026-07-28, 2025-11-25"))

	out.Reset()
	code = run(context.Background(), []string{"manifest", url, "-q", "-timeout", "20s"}, &out, &errOut)
	is.Equal(code, 0)
	m, err := manifest.Parse(out.Bytes())
	is.NoErr(err)
	is.True(m.ServerCard != nil)
	is.Equal(m.ServerCard.Name, "com.example/weather")
	raw, _ := json.Marshal(m.ServerCard.Remotes)
	is.True(strings.Contains(string(raw), url))
}

// TestReadCardTellsNoneFromUnknown: a 404 or something else at the card's
// path is no card; a 5xx is an error, not a card removed.
func TestReadCardTellsNoneFromUnknown(t *testing.T) {
	is := is.New(t)
	status, body := http.StatusNotFound, ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	card, err := readCard(context.Background(), srv.Client(), srv.URL+"/mcp")
	is.NoErr(err)
	is.True(card == nil)
	status, body = http.StatusOK, `{"hello":"world"}`
	card, err = readCard(context.Background(), srv.Client(), srv.URL+"/mcp")
	is.NoErr(err)
	is.True(card == nil) // not a card
	status = http.StatusBadGateway
	_, err = readCard(context.Background(), srv.Client(), srv.URL+"/mcp")
	is.True(err != nil)
}
