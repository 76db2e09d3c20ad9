package vurb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/dpop"
	"github.com/vurb-go/vurb/store"
	"golang.org/x/oauth2"
)

// dpopClient connects a go-sdk client to endpoint with revision protocol,
// sending token bound to key's signer through a dpop.Transport over base
// (http.DefaultTransport when nil).
func dpopClient(ctx context.Context, t testing.TB, endpoint, protocol, token string, k dpopKey, base http.RoundTripper) (*mcp.ClientSession, error) {
	t.Helper()
	signer, err := dpop.NewSigner(k.priv)
	if err != nil {
		t.Fatal(err)
	}
	tr := &dpop.Transport{Signer: signer, Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token, TokenType: "DPoP"}), Base: base}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "dpop-client", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: tr}, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func TestDPoPClientsOnEveryPath(t *testing.T) {
	alice, mallory := newDPoPKey(t), newDPoPKey(t)
	verify := func(string) auth.TokenVerifier { return dpopTokens(alice) }
	for _, tc := range []struct {
		name, protocol string
		opts           []vurb.ServeOption
	}{
		{"session lane", "2025-11-25", nil},
		{"go-sdk session", "2025-11-25", []vurb.ServeOption{vurb.WithFastLane(false)}},
		{"go-sdk stateless", "2025-11-25", []vurb.ServeOption{vurb.WithStateless()}},
		{"sessionless, fast lane", "2026-07-28", nil},
		{"sessionless, go-sdk", "2026-07-28", []vurb.ServeOption{vurb.WithFastLane(false)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			ctx := context.Background()
			var ran atomic.Int64
			_, resource := protectedServer(t, dpopApp(&ran), verify, nil, append(tc.opts, vurb.WithDPoP(dpop.Policy{}))...)

			cs, err := dpopClient(ctx, t, resource, tc.protocol, "alice", alice, nil)
			is.NoErr(err)
			for range 3 { // a proof each, none replayed
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_read"})
				is.NoErr(err)
				is.Equal(resultText(res), "the notes")
			}
			is.Equal(ran.Load(), int64(3))

			// The token stolen: useless with another key, or as Bearer.
			seen := &lastAnswer{}
			_, err = dpopClient(ctx, t, resource, tc.protocol, "alice", mallory, seen)
			is.True(err != nil)
			is.Equal(seen.status, 401)
			is.True(strings.Contains(seen.challenge, `DPoP error="invalid_token"`)) // another key than the token's
			_, _, err = bearerClient(ctx, resource, tc.protocol, "alice")
			is.True(err != nil && strings.Contains(err.Error(), "Unauthorized"))
			is.Equal(ran.Load(), int64(3))
		})
	}
}

// lastAnswer keeps the status and challenges of the last answer it saw.
type lastAnswer struct {
	status    int
	challenge string
}

func (l *lastAnswer) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		l.status, l.challenge = res.StatusCode, strings.Join(res.Header.Values("WWW-Authenticate"), "; ")
	}
	return res, err
}

// callRecorder keeps the last tools/call request it sent, headers and body.
type callRecorder struct {
	mu     sync.Mutex
	header http.Header
	body   []byte
}

func (rec *callRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			rec.mu.Lock()
			rec.header, rec.body = r.Header.Clone(), body
			rec.mu.Unlock()
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// replay sends the recorded request again, word for word.
func (rec *callRecorder) replay(t *testing.T, url string) dpopAnswer {
	rec.mu.Lock()
	header, body := rec.header, rec.body
	rec.mu.Unlock()
	if header == nil {
		t.Fatal("no tools/call recorded")
	}
	return sendProofs(t, url, header, header.Get("Authorization"), nil, string(body))
}

func TestDPoPReplayedProofIsRefused(t *testing.T) {
	alice := newDPoPKey(t)
	verify := func(string) auth.TokenVerifier { return dpopTokens(alice) }
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			is := is.New(t)
			ctx := context.Background()
			var ran atomic.Int64
			_, resource := protectedServer(t, dpopApp(&ran), verify, nil, vurb.WithDPoP(dpop.Policy{}))
			rec := &callRecorder{}
			cs, err := dpopClient(ctx, t, resource, protocol, "alice", alice, rec)
			is.NoErr(err)
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_read"})
			is.NoErr(err)
			is.Equal(ran.Load(), int64(1))

			a := rec.replay(t, resource) // the same request, its proof with it
			is.Equal(a.status, 401)
			is.Equal(a.dpopError("DPoP"), "invalid_dpop_proof")
			is.Equal(ran.Load(), int64(1))

			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_read"}) // the client goes on with fresh proofs
			is.NoErr(err)
			is.Equal(ran.Load(), int64(2))
		})
	}
}

func TestDPoPNonces(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	alice := newDPoPKey(t)
	key := bytes.Repeat([]byte{7}, 32)
	verify := func(string) auth.TokenVerifier { return dpopTokens(alice) }
	policy := dpop.Policy{Nonces: true, NonceLifetime: time.Second} // a nonce lives 1–2 s: long enough under a loaded CI
	var ran atomic.Int64
	serve := func(key []byte) string {
		_, resource := protectedServer(t, dpopApp(&ran, vurb.WithRequestStateKeys(key)), verify, nil, vurb.WithDPoP(policy))
		return resource
	}
	one, two, other := serve(key), serve(key), serve(bytes.Repeat([]byte{8}, 32))
	header, body := sessionlessCall("notes_read")
	send := func(url, nonce string) dpopAnswer {
		c := proofClaims(url, "alice")
		if nonce != "" {
			c["nonce"] = nonce
		}
		return sendProofs(t, url, header, "DPoP alice", []string{signProof(t, alice, "ES256", c, false)}, body)
	}

	a := send(one, "") // no nonce: told to use one, and given it
	is.Equal(a.status, 401)
	is.Equal(a.dpopError("DPoP"), "use_dpop_nonce")
	is.True(a.nonce != "")
	is.True(strings.Contains(a.body, "DPoP-Nonce"))
	nonce := a.nonce

	is.Equal(send(one, nonce).status, 200)
	is.Equal(send(two, nonce).status, 200) // a replica sharing the keys takes it
	a = send(other, nonce)                 // an app with other keys does not
	is.Equal(a.dpopError("DPoP"), "use_dpop_nonce")
	a = send(one, "made-up")
	is.Equal(a.dpopError("DPoP"), "use_dpop_nonce")

	time.Sleep(2*policy.NonceLifetime + 50*time.Millisecond)
	a = send(one, nonce) // stale
	is.Equal(a.status, 401)
	is.Equal(a.dpopError("DPoP"), "use_dpop_nonce")
	is.True(a.nonce != nonce)
	is.Equal(ran.Load(), int64(2)) // the two calls with a current nonce, none of the refused

	// The Transport takes up the nonce it is given and sends again.
	cs, err := dpopClient(ctx, t, one, "2026-07-28", "alice", alice, nil)
	is.NoErr(err)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "notes_read"})
	is.NoErr(err)
	is.Equal(resultText(res), "the notes")
}

func TestDPoPRequiredRefusesBearerTokens(t *testing.T) {
	is := is.New(t)
	alice := newDPoPKey(t)
	var ran atomic.Int64
	verify := func(string) auth.TokenVerifier { return dpopTokens(alice) }
	srv, resource := protectedServer(t, dpopApp(&ran), verify, nil, vurb.WithDPoP(dpop.Policy{Required: true, Algs: []string{"ES256", "EdDSA"}}))
	header, body := sessionlessCall("notes_read")

	for _, authorization := range []string{"Bearer\tbob", "bearer   bob", "BEARER bob", " Bearer bob ", "Basic Ym9iOmJvYg==", "Bearer bob extra", "DPoP bob"} {
		a := sendProofs(t, resource, header, authorization, nil, body) // however it is written
		is.Equal(a.status, 401)
		is.Equal(len(a.challenge), 1)
	}
	is.Equal(ran.Load(), int64(0))
	a := sendProofs(t, resource, header, "Bearer bob", nil, body) // unbound: no longer enough
	is.Equal(a.status, 401)
	is.Equal(len(a.challenge), 1) // DPoP alone is offered
	is.Equal(a.challenge[0], `DPoP error="invalid_token", algs="ES256 EdDSA", resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
	is.True(strings.Contains(a.body, "DPoP-bound tokens only"))

	a = sendProofs(t, resource, header, "", nil, body)
	is.Equal(a.challenge, []string{`DPoP algs="ES256 EdDSA", resource_metadata="` + srv.URL + `/.well-known/oauth-protected-resource/mcp"`})

	a = sendProofs(t, resource, header, "DPoP alice", []string{signProof(t, alice, "ES256", proofClaims(resource, "alice"), false)}, body)
	is.Equal(a.status, 200)
	is.Equal(ran.Load(), int64(1))

	res, err := http.Get(srv.URL + "/.well-known/oauth-protected-resource/mcp")
	is.NoErr(err)
	defer res.Body.Close()
	var doc map[string]any
	is.NoErr(json.NewDecoder(res.Body).Decode(&doc))
	is.Equal(doc["dpop_bound_access_tokens_required"], true)
	is.Equal(doc["dpop_signing_alg_values_supported"], []any{"ES256", "EdDSA"})
}

func TestDPoPScopeChallengeNamesTheScheme(t *testing.T) {
	is := is.New(t)
	alice := newDPoPKey(t)
	app := vurb.New()
	var ran atomic.Int64
	vurb.Mutation(app, "notes.wipe", func(context.Context, struct{}) (string, error) { ran.Add(1); return "wiped", nil }).RequireScopes("admin")
	verify := func(string) auth.TokenVerifier { return dpopTokens(alice) }
	srv, resource := protectedServer(t, app, verify, nil, vurb.WithDPoP(dpop.Policy{Algs: []string{"ES256"}}), vurb.WithScopeChallenges())
	header, body := sessionlessCall("notes_wipe")
	a := sendProofs(t, resource, header, "DPoP alice", []string{signProof(t, alice, "ES256", proofClaims(resource, "alice"), false)}, body)
	is.Equal(a.status, 403)
	is.Equal(a.challenge, []string{`DPoP error="insufficient_scope", algs="ES256", scope="admin", resource_metadata="` + srv.URL + `/.well-known/oauth-protected-resource/mcp", error_description="this operation needs more scopes"`})
	is.Equal(ran.Load(), int64(0))
}

// countingLedger is a shared ledger that counts its round trips, and
// fails while down.
type countingLedger struct {
	mu    sync.Mutex
	spent map[string]bool
	calls int
	down  bool
}

func (l *countingLedger) Spend(_ context.Context, key string, _ time.Duration) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	if l.down {
		return false, errors.New("connection refused")
	}
	if l.spent[key] {
		return false, nil
	}
	l.spent[key] = true
	return true, nil
}

func (l *countingLedger) rounds() int { l.mu.Lock(); defer l.mu.Unlock(); return l.calls }

func TestDPoPSpendsOneRoundTripAndFailsClosed(t *testing.T) {
	is := is.New(t)
	alice := newDPoPKey(t)
	ledger := &countingLedger{spent: map[string]bool{}}
	replicated := func() *vurb.App {
		app := vurb.New(vurb.WithName("notes"), vurb.WithRequestStateKeys(bytes.Repeat([]byte{9}, 32)), vurb.WithReplicas(store.Replicas{Ledger: ledger}),
			vurb.WithLogger(slog.New(slog.DiscardHandler))) // the ledger's failure is logged, as it should be
		vurb.Query(app, "notes.read", func(context.Context, struct{}) (string, error) { return "the notes", nil })
		return app
	}
	// Two replicas behind one public URL, as a balancer makes them: the
	// proof names that URL, whatever address each replica listens on.
	const public = "https://mcp.example.com/mcp"
	meta := &oauthex.ProtectedResourceMetadata{Resource: public, AuthorizationServers: []string{"https://issuer.example"}}
	serve := func(opts ...vurb.ServeOption) string {
		srv := httptest.NewServer(replicated().HTTPHandler(append(opts, vurb.WithBearerAuth(dpopTokens(alice), meta, nil))...))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	one, two, without := serve(vurb.WithDPoP(dpop.Policy{})), serve(vurb.WithDPoP(dpop.Policy{})), serve()
	header, body := sessionlessCall("notes_read")

	is.Equal(sendProofs(t, without, header, "Bearer bob", nil, body).status, 200)
	is.Equal(ledger.rounds(), 0) // no DPoP, no round trip

	proof := signProof(t, alice, "ES256", proofClaims(public, "alice"), false)
	is.Equal(sendProofs(t, one, header, "DPoP alice", []string{proof}, body).status, 200)
	is.Equal(ledger.rounds(), 1)                                         // one SET NX
	a := sendProofs(t, two, header, "DPoP alice", []string{proof}, body) // replayed on the other replica
	is.Equal(a.status, 401)
	is.Equal(a.dpopError("DPoP"), "invalid_dpop_proof")
	a = sendProofs(t, two, header, "DPoP alice", []string{signProof(t, alice, "ES256", proofClaims("http://"+strings.TrimPrefix(two, "http://")+"/mcp", "alice"), false)}, body)
	is.Equal(a.dpopError("DPoP"), "invalid_dpop_proof") // signed for the address a replica listens on, not the resource
	is.Equal(ledger.rounds(), 2)

	ledger.mu.Lock()
	ledger.down = true
	ledger.mu.Unlock()
	a = sendProofs(t, one, header, "DPoP alice", []string{signProof(t, alice, "ES256", proofClaims(public, "alice"), false)}, body)
	is.Equal(a.status, 503) // unchecked: never honoured, and not the client's fault
	is.True(strings.Contains(a.body, "retry"))
	is.True(!strings.Contains(a.body, "connection refused"))
}

func TestDPoPHandlersSeeWhatTheClientSent(t *testing.T) {
	is := is.New(t)
	alice := newDPoPKey(t)
	app := vurb.New()
	vurb.Query(app, "whoami", func(ctx context.Context, _ struct{}) (string, error) {
		c := vurb.CallerFrom(ctx)
		scheme, _, _ := strings.Cut(c.Header.Get("Authorization"), " ")
		return c.Subject() + " " + scheme, nil
	})
	verify := func(string) auth.TokenVerifier { return dpopTokens(alice) }
	_, resource := protectedServer(t, app, verify, nil, vurb.WithDPoP(dpop.Policy{}))
	cs, err := dpopClient(context.Background(), t, resource, "2026-07-28", "alice", alice, nil)
	is.NoErr(err)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"})
	is.NoErr(err)
	is.Equal(resultText(res), "alice DPoP") // the verified subject, and the scheme as sent
}

func TestWithDPoPRefusesWhatCannotWork(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy dpop.Policy
		says   string
	}{
		{"a MAC", dpop.Policy{Algs: []string{"ES256", "HS256"}}, `Policy.Algs names "HS256", which vurb does not verify (never a MAC or none)`},
		{"an algorithm vurb does not verify", dpop.Policy{Algs: []string{"ES256K"}}, `Policy.Algs names "ES256K", which vurb does not verify`},
		{"none", dpop.Policy{Algs: []string{"none"}}, `Policy.Algs names "none"`},
		{"no algorithm", dpop.Policy{Algs: []string{}}, "Policy.Algs is empty"},
		{"negative window", dpop.Policy{Window: -time.Second}, "Policy.Window is -1s: give a positive window"},
		{"a window under a second", dpop.Policy{Window: 500 * time.Millisecond}, "Policy.Window is 500ms: a proof's iat is in whole seconds"},
		{"negative lifetime", dpop.Policy{Nonces: true, NonceLifetime: -time.Second}, "Policy.NonceLifetime is -1s"},
		{"lifetime without nonces", dpop.Policy{NonceLifetime: time.Minute}, "Policy.NonceLifetime is set but Policy.Nonces is not"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := mustPanic(t, func() { vurb.WithDPoP(tc.policy) })
			is.New(t).True(strings.Contains(msg, "vurb: WithDPoP: "+tc.says))
		})
	}
	t.Run("without WithBearerAuth", func(t *testing.T) {
		msg := mustPanic(t, func() { vurb.New().HTTPHandler(vurb.WithDPoP(dpop.Policy{})) })
		is.New(t).True(strings.Contains(msg, "WithDPoP needs WithBearerAuth"))
	})
	t.Run("not over stdio", func(t *testing.T) {
		msg := mustPanic(t, func() { vurb.New().NewServer(vurb.WithDPoP(dpop.Policy{})) })
		is.New(t).True(strings.Contains(msg, "WithDPoP only apply to HTTP"))
	})
}
