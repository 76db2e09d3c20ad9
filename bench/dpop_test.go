package bench

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/dpop"
)

// BenchmarkDPoP is what DPoP costs a served call: one sessionless
// (2026-07-28) tools/call through the HTTP handler, in memory (no
// sockets), behind WithBearerAuth. The contenders, interleaved in one
// run: a bearer token to an app without WithDPoP; the same bearer token
// to an app with WithDPoP (accepted beside Bearer), which must cost
// nothing more; and a DPoP-bound token with its proof, whose check is an
// ES256 signature verification, the proof's claims and the jti spent in
// memory. Proofs are signed between the timed calls, as a client would
// before sending.
func BenchmarkDPoP(b *testing.B) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	signer, err := dpop.NewSigner(key)
	if err != nil {
		b.Fatal(err)
	}
	const resource = "https://mcp.example.com/mcp"
	soon := time.Now().Add(time.Hour)
	bearer := &auth.TokenInfo{UserID: "bob", Expiration: soon}
	bound := &auth.TokenInfo{UserID: "alice", Expiration: soon, Extra: map[string]any{"cnf": map[string]any{"jkt": signer.JKT()}}}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token == "alice" {
			return bound, nil
		}
		return bearer, nil
	}
	handler := func(opts ...vurb.ServeOption) http.Handler {
		app := vurb.New(vurb.WithName("bench"), vurb.WithLogger(discard))
		vurb.Query(app, "docs.search", func(_ context.Context, in docsSearch) (string, error) { return in.Query, nil })
		return app.HTTPHandler(append(opts, vurb.WithJSONResponse(),
			vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{Resource: resource}, nil))...)
	}
	plain, accepting := handler(), handler(vurb.WithDPoP(dpop.Policy{}))
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"docs_search","arguments":{"query":"golang","limit":10},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	serve := func(h http.Handler, authorization, proof string) error {
		r := httptest.NewRequest(http.MethodPost, resource, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		r.Header.Set("Mcp-Method", "tools/call")
		r.Header.Set("Mcp-Name", "docs_search")
		r.Header.Set("Authorization", authorization)
		if proof != "" {
			r.Header.Set("DPoP", proof)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"text":"golang"`) {
			return fmt.Errorf("%d %s", w.Code, w.Body)
		}
		return nil
	}
	names := []string{"bearer/no-dpop", "bearer/dpop-accepted", "dpop"}
	var proof string
	calls := []func() error{
		func() error { return serve(plain, "Bearer bob", "") },
		func() error { return serve(accepting, "Bearer bob", "") },
		func() error { return serve(accepting, "DPoP alice", proof) },
	}
	totals := make([]time.Duration, len(calls))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		b.StopTimer()
		if proof, err = signer.Proof(http.MethodPost, resource, "alice", ""); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for k := range calls {
			i := (n + k) % len(calls)
			start := time.Now()
			if err := calls[i](); err != nil {
				b.Fatal(names[i], err)
			}
			totals[i] += time.Since(start)
		}
		n++
	}
	reportPaired(b, n, names, totals, [][2]int{{1, 0}, {2, 0}})
	if n > 0 {
		b.ReportMetric(float64((totals[2]-totals[1]).Nanoseconds())/float64(n), "dpop-check-ns/op")
	}
}
