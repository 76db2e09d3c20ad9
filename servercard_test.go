package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/servercard"
)

// cardServer serves a weather app behind bearer auth with its server card
// (and catalog) on, and returns its base URL.
func cardServer(t *testing.T, version string, opts ...vurb.ServeOption) string {
	t.Helper()
	app := vurb.New(vurb.WithName("com.example/weather"), vurb.WithVersion(version))
	vurb.Query(app, "forecast.get", func(context.Context, struct{}) (string, error) { return "sunny", nil })
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	t.Cleanup(srv.Close)
	tokens := map[string]*auth.TokenInfo{"t": {UserID: "u", Expiration: time.Now().Add(time.Hour)}}
	srv.Config.Handler = app.HTTPHandler(append([]vurb.ServeOption{
		vurb.WithBearerAuth(opaqueTokens(tokens), &oauthex.ProtectedResourceMetadata{Resource: srv.URL + "/mcp"}, nil),
		vurb.WithServerCard(servercard.Options{Endpoint: srv.URL + "/mcp", Description: "Forecasts and weather alerts", Title: "Weather", Catalog: true}),
	}, opts...)...)
	return srv.URL
}

func get(t *testing.T, method, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// validCard validates card against the SEP's schema (pinned in
// servercard/testdata, with its source), formats asserted.
func validCard(t *testing.T, card []byte) error {
	t.Helper()
	doc, err := os.ReadFile("servercard/testdata/server-card.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := santhosh.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := santhosh.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json", inst); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json#/$defs/ServerCard")
	if err != nil {
		t.Fatal(err)
	}
	v, err := santhosh.UnmarshalJSON(bytes.NewReader(card))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// TestServerCardIsServedPublicAndValid: the card is public behind bearer
// auth, valid by the SEP's own schema, cached by ETag, readable from any
// origin, and says the revisions the endpoint negotiates.
func TestServerCardIsServedPublicAndValid(t *testing.T) {
	is := is.New(t)
	base := cardServer(t, "1.2.0")
	resp, body := get(t, http.MethodGet, base+"/mcp/server-card", map[string]string{"Accept": servercard.MediaType, "Origin": "https://registry.example"})
	is.Equal(resp.StatusCode, http.StatusOK) // no token needed
	is.Equal(resp.Header.Get("Content-Type"), "application/mcp-server-card+json")
	is.Equal(resp.Header.Get("Access-Control-Allow-Origin"), "*")
	is.Equal(resp.Header.Get("Cache-Control"), "public, max-age=3600")
	etag := resp.Header.Get("ETag")
	is.True(strings.HasPrefix(etag, `"`))
	is.NoErr(validCard(t, body))
	is.True(validCard(t, []byte(`{"$schema":"`+servercard.SchemaURL+`","name":"weather","version":"1","description":"d"}`)) != nil) // the schema refuses what it should
	var card servercard.Card
	is.NoErr(json.Unmarshal(body, &card))
	is.Equal(card.Name, "com.example/weather")
	is.Equal(card.Version, "1.2.0")
	is.Equal(card.Remotes[0].URL, base+"/mcp")

	// What the card says of revisions is what the endpoint negotiates.
	disc, _, err := postJSONRPC(base+"/mcp", "t", "2026-07-28", "server/discover", "",
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)
	is.NoErr(err)
	var discovered struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	is.NoErr(json.Unmarshal(disc.Result, &discovered))
	is.Equal(card.Remotes[0].SupportedProtocolVersions, discovered.SupportedVersions)
	for _, v := range card.Remotes[0].SupportedProtocolVersions {
		if v >= "2026-07-28" {
			continue
		}
		init, _, err := postJSONRPC(base+"/mcp", "t", v, "initialize", "",
			`{"protocolVersion":"`+v+`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)
		is.NoErr(err)
		var got struct{ ProtocolVersion string }
		is.NoErr(json.Unmarshal(init.Result, &got))
		is.Equal(got.ProtocolVersion, v) // each revision the card names, negotiated
	}

	resp, body = get(t, http.MethodGet, base+"/mcp/server-card", map[string]string{"If-None-Match": etag})
	is.Equal(resp.StatusCode, http.StatusNotModified)
	is.Equal(len(body), 0)
	resp, _ = get(t, http.MethodGet, base+"/mcp/server-card", map[string]string{"If-None-Match": `W/` + etag + `, "other"`})
	is.Equal(resp.StatusCode, http.StatusNotModified)
	resp, _ = get(t, http.MethodGet, base+"/mcp/server-card", map[string]string{"If-None-Match": `"stale"`})
	is.Equal(resp.StatusCode, http.StatusOK)
	resp, _ = get(t, http.MethodOptions, base+"/mcp/server-card", map[string]string{"Origin": "https://x.example", "Access-Control-Request-Method": "GET"})
	is.Equal(resp.StatusCode, http.StatusNoContent)
	is.True(strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "GET"))
	resp, _ = get(t, http.MethodPost, base+"/mcp/server-card", nil)
	is.Equal(resp.StatusCode, http.StatusMethodNotAllowed)
	resp, _ = get(t, http.MethodGet, base+"/mcp", nil)
	is.Equal(resp.StatusCode, http.StatusUnauthorized) // the endpoint itself still needs a token

	// A new version is a new card, and a new ETag.
	resp, _ = get(t, http.MethodGet, cardServer(t, "1.3.0")+"/mcp/server-card", nil)
	is.True(resp.Header.Get("ETag") != etag)

	for _, path := range []string{servercard.CatalogPath, servercard.AICatalogPath} {
		resp, body = get(t, http.MethodGet, base+path, nil)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(resp.Header.Get("Access-Control-Allow-Origin"), "*")
		var cat servercard.Catalog
		is.NoErr(json.Unmarshal(body, &cat))
		is.Equal(cat.Entries, []servercard.Entry{{Identifier: "urn:air:example.com:weather", DisplayName: "Weather",
			Type: servercard.MediaType, URL: base + "/mcp/server-card"}})
	}
}

// TestServerCardBehindTheHostGuard: a name that rebinds to the loopback
// listener, or a host WithAllowedHosts does not list, reads no card.
func TestServerCardBehindTheHostGuard(t *testing.T) {
	is := is.New(t)
	base := cardServer(t, "1.2.0")
	req, _ := http.NewRequest(http.MethodGet, base+"/mcp/server-card", nil)
	req.Host = "attacker.example"
	resp, err := http.DefaultClient.Do(req)
	is.NoErr(err)
	resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusForbidden)

	listed := cardServer(t, "1.2.0", vurb.WithAllowedHosts("mcp.example.com"))
	resp, _ = get(t, http.MethodGet, listed+"/mcp/server-card", nil)
	is.Equal(resp.StatusCode, http.StatusForbidden)
}

// TestServerCardNeedsWhatItCannotDerive: an app whose name is not
// reverse-DNS cannot serve a card, and is told so when its handler is
// made.
func TestServerCardNeedsWhatItCannotDerive(t *testing.T) {
	app := vurb.New(vurb.WithName("weather"))
	vurb.Query(app, "forecast.get", func(context.Context, struct{}) (string, error) { return "sunny", nil })
	msg := mustPanic(t, func() {
		app.HTTPHandler(vurb.WithServerCard(servercard.Options{Endpoint: "https://mcp.example.com/mcp", Description: "Forecasts"}))
	})
	is := is.New(t)
	is.True(strings.Contains(msg, `the app's name "weather" is not a reverse-DNS name with one slash (com.example/weather): give WithName one`))
}

// TestAFullCardIsValid: a card with every field the Options give is one
// the SEP's schema accepts.
func TestAFullCardIsValid(t *testing.T) {
	is := is.New(t)
	card, err := servercard.Build("com.example/weather", "1.0.0-rc.1", []string{"2026-07-28"}, servercard.Options{
		Endpoint: "https://mcp.example.com/api/mcp", Description: "Forecasts", Title: "Weather", WebsiteURL: "https://example.com/weather",
		Icons:      []servercard.Icon{{Src: "https://example.com/w.png", MimeType: "image/png", Sizes: []string{"48x48"}, Theme: "light"}},
		Repository: &servercard.Repository{URL: "https://github.com/example/weather", Source: "github", Subfolder: "server"}})
	is.NoErr(err)
	raw, err := json.Marshal(card)
	is.NoErr(err)
	is.NoErr(validCard(t, raw))
}

// TestServerCardThroughListenAndServe: ListenAndServe routes the card's
// path and the catalog's to the handler, beside /mcp.
func TestServerCardThroughListenAndServe(t *testing.T) {
	is := is.New(t)
	app := vurb.New(vurb.WithName("com.example/weather"), vurb.WithVersion("1.0.0"))
	vurb.Query(app, "forecast.get", func(context.Context, struct{}) (string, error) { return "sunny", nil })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- app.ServeListener(ctx, ln, vurb.WithServerCard(servercard.Options{Endpoint: base + "/mcp", Description: "Forecasts", Catalog: true}))
	}()
	t.Cleanup(func() { cancel(); <-done })
	for _, path := range []string{"/mcp/server-card", servercard.CatalogPath, servercard.AICatalogPath} {
		var resp *http.Response
		for range 50 {
			if resp, err = http.Get(base + path); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		is.NoErr(err)
		resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusOK) // path
	}
}
