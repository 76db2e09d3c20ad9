package redisstate_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/dpop"
	"github.com/vurb-go/vurb/redisstate"
)

// dpopFleet is three replicas on one redis-server behind one public URL,
// as a balancer makes them: a proof names that URL, whichever replica
// answers. alice's token is bound to signer's key.
type dpopFleet struct {
	urls   []string
	runs   *atomic.Int32
	signer *dpop.Signer
	logs   *logLines
}

const dpopResource = "https://mcp.example.com/mcp"

func startDPoPFleet(t *testing.T, rs *redisServer) *dpopFleet {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := dpop.NewSigner(k)
	if err != nil {
		t.Fatal(err)
	}
	f := &dpopFleet{runs: new(atomic.Int32), signer: signer, logs: &logLines{}}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "alice-token" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "alice", Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"cnf": map[string]any{"jkt": signer.JKT()}}}, nil
	}
	for range 3 {
		app := vurb.New(vurb.WithName("dpop"), vurb.WithReplicas(redisstate.New(rs.client(t), redisstate.WithTimeout(250*time.Millisecond))),
			vurb.WithRequestStateKeys(attackKey), vurb.WithLogger(slog.New(slog.NewTextHandler(f.logs, nil))))
		vurb.Mutation(app, "docs.wipe", func(context.Context, struct{}) (string, error) {
			f.runs.Add(1)
			return "wiped", nil
		})
		srv := httptest.NewServer(app.HTTPHandler(vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{Resource: dpopResource}, nil),
			vurb.WithDPoP(dpop.Policy{})))
		t.Cleanup(srv.Close)
		f.urls = append(f.urls, srv.URL)
	}
	return f
}

func (f *dpopFleet) proof(t *testing.T) string {
	p, err := f.signer.Proof(http.MethodPost, dpopResource, "alice-token", "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// call posts a sessionless tools/call with proof to url.
func (f *dpopFleet) call(t *testing.T, url, proof string) (status int, header http.Header, body string) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"docs_wipe","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "docs_wipe")
	req.Header.Set("Authorization", "DPoP alice-token")
	req.Header.Set("DPoP", proof)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(data)
}

// A proof is good once for the deployment: replayed on the replica that
// took it or on another, or raced to all three at once, it runs once.
func TestDPoPProofIsSpentOnceForTheDeployment(t *testing.T) {
	is := is.New(t)
	f := startDPoPFleet(t, startRedis(t))

	proof := f.proof(t)
	status, _, _ := f.call(t, f.urls[0], proof)
	is.Equal(status, 200)
	for _, url := range f.urls {
		status, header, _ := f.call(t, url, proof)
		is.Equal(status, 401)
		is.True(strings.Contains(strings.Join(header.Values("WWW-Authenticate"), "; "), `DPoP error="invalid_dpop_proof"`))
	}
	is.Equal(f.runs.Load(), int32(1))

	for range 10 { // races: one proof, three replicas, four sends each
		proof := f.proof(t)
		var ok atomic.Int32
		var wg sync.WaitGroup
		for i := range 12 {
			wg.Go(func() {
				if status, _, _ := f.call(t, f.urls[i%3], proof); status == 200 {
					ok.Add(1)
				}
			})
		}
		wg.Wait()
		is.Equal(ok.Load(), int32(1))
	}
	is.Equal(f.runs.Load(), int32(11))
}

// With Redis down a proof cannot be checked against the other replicas:
// 503, never honoured, nothing of the store told; with Redis back, a new
// proof is served.
func TestDPoPWithTheStoreDownIsUnavailable(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	f := startDPoPFleet(t, rs)
	rs.stop()
	status, header, body := f.call(t, f.urls[1], f.proof(t))
	is.Equal(status, http.StatusServiceUnavailable)
	is.True(header.Get("Retry-After") != "")
	for _, leak := range []string{"redis", "127.0.0.1", "dial", "refused"} {
		is.True(!strings.Contains(strings.ToLower(body), leak))
	}
	is.Equal(f.runs.Load(), int32(0))
	is.True(strings.Contains(f.logs.String(), "spending a dpop in the shared ledger failed"))
	rs.restart(t)
	status, _, _ = f.call(t, f.urls[1], f.proof(t))
	is.Equal(status, 200)
	is.Equal(f.runs.Load(), int32(1))
}
