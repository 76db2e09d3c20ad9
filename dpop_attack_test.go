package vurb_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/dpop"
)

// The attacks on DPoP (RFC 9449) over real HTTP: a client of the test's
// own making signs proofs with go-jose, valid or forged, and sends them
// on each path a request can take; every refusal carries the RFC's error
// and reaches no handler.

// dpopKey is a client's key pair and the thumbprint tokens bind to.
type dpopKey struct {
	priv *ecdsa.PrivateKey
	jkt  string
}

func newDPoPKey(t testing.TB) dpopKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	thumb, err := (&jose.JSONWebKey{Key: k.Public()}).Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	return dpopKey{k, base64.RawURLEncoding.EncodeToString(thumb)}
}

// dpopTokens: "alice" is bound to alice's key, "bob" to none, "odd" has
// a cnf vurb cannot read, "mtls" is bound to a TLS client certificate.
func dpopTokens(alice dpopKey) auth.TokenVerifier {
	soon := time.Now().Add(time.Hour)
	return opaqueTokens(map[string]*auth.TokenInfo{
		"alice": {UserID: "alice", Expiration: soon, Extra: map[string]any{"cnf": map[string]any{"jkt": alice.jkt}}},
		"bob":   {UserID: "bob", Expiration: soon},
		"odd":   {UserID: "carol", Expiration: soon, Extra: map[string]any{"cnf": 42}},
		"mtls":  {UserID: "dave", Expiration: soon, Extra: map[string]any{"cnf": map[string]any{"x5t#S256": "bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2"}}},
	})
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// proofClaims are a valid proof's claims for a POST of token to url.
func proofClaims(url, token string) map[string]any {
	jti := make([]byte, 12)
	rand.Read(jti)
	return map[string]any{"jti": base64.RawURLEncoding.EncodeToString(jti), "htm": "POST", "htu": url, "iat": time.Now().Unix(), "ath": hashToken(token)}
}

// signProof signs claims with k as alg, embedding the public key (or,
// with private, the private one too).
func signProof(t testing.TB, k dpopKey, alg jose.SignatureAlgorithm, claims map[string]any, private bool) string {
	t.Helper()
	opts := (&jose.SignerOptions{EmbedJWK: !private}).WithType("dpop+jwt")
	if private {
		opts = opts.WithHeader("jwk", jose.JSONWebKey{Key: k.priv})
	}
	var key any = k.priv
	if alg == jose.HS256 {
		key = []byte("a shared secret of thirty-two bytes")
		opts = opts.WithHeader("jwk", jose.JSONWebKey{Key: k.priv.Public()})
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	jws, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// unsignedProof is claims under alg "none".
func unsignedProof(k dpopKey, claims map[string]any) string {
	jwk, _ := json.Marshal(jose.JSONWebKey{Key: k.priv.Public()})
	header, _ := json.Marshal(map[string]any{"typ": "dpop+jwt", "alg": "none", "jwk": json.RawMessage(jwk)})
	payload, _ := json.Marshal(claims)
	return base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(payload) + "."
}

// dpopAnswer is what a client reads of a refused or served request.
type dpopAnswer struct {
	status    int
	challenge []string
	nonce     string
	body      string
}

// sendProofs posts body to url with authorization and each of proofs as
// a DPoP header.
func sendProofs(t testing.TB, url string, header http.Header, authorization string, proofs []string, body string) dpopAnswer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	for _, p := range proofs {
		req.Header.Add("DPoP", p)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return dpopAnswer{res.StatusCode, res.Header.Values("WWW-Authenticate"), res.Header.Get("DPoP-Nonce"), string(data)}
}

// dpopError is the error code of the challenge of scheme, "" when none.
func (a dpopAnswer) dpopError(scheme string) string {
	for _, c := range a.challenge {
		if rest, ok := strings.CutPrefix(c, scheme+" "); ok {
			if _, after, ok := strings.Cut(rest, `error="`); ok {
				code, _, _ := strings.Cut(after, `"`)
				return code
			}
			return ""
		}
	}
	return "no " + scheme + " challenge"
}

// dpopApp counts the calls its handlers run: a refused request runs none.
func dpopApp(ran *atomic.Int64, opts ...vurb.Option) *vurb.App {
	app := vurb.New(opts...)
	vurb.Query(app, "notes.read", func(context.Context, struct{}) (string, error) {
		ran.Add(1)
		return "the notes", nil
	})
	vurb.Mutation(app, "jobs.run", func(context.Context, struct{}) (string, error) {
		ran.Add(1)
		return "ran", nil
	}).Task(vurb.WithTaskRequired(), vurb.WithTaskTTL(time.Minute))
	return app
}

// dpopRequest is one kind of request a path takes, as sent raw.
type dpopRequest struct {
	name   string
	url    string
	header http.Header
	body   string
	calls  bool // it runs a handler when served
}

func sessionlessCall(tool string) (http.Header, string) {
	h := http.Header{"Mcp-Protocol-Version": {"2026-07-28"}, "Mcp-Method": {"tools/call"}, "Mcp-Name": {tool}}
	return h, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
}

func TestDPoPAttacksAreRefusedOnEveryPath(t *testing.T) {
	alice, mallory := newDPoPKey(t), newDPoPKey(t)
	var ran atomic.Int64
	app := dpopApp(&ran)
	verify := func(string) auth.TokenVerifier { return dpopTokens(alice) }
	_, resource := protectedServer(t, app, verify, nil, vurb.WithDPoP(dpop.Policy{}))
	_, sdkResource := protectedServer(t, app, verify, nil, vurb.WithDPoP(dpop.Policy{}), vurb.WithFastLane(false))
	callHeader, callBody := sessionlessCall("notes_read")
	taskHeader := http.Header{"Mcp-Protocol-Version": {"2026-07-28"}, "Mcp-Method": {"tools/call"}, "Mcp-Name": {"jobs_run"}}
	taskBody := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"jobs_run","arguments":{},` + tasksMeta + `}}`
	paths := []dpopRequest{
		{"fast lane", resource, callHeader, callBody, true},
		{"go-sdk stateless", sdkResource, callHeader, callBody, true},
		{"task", resource, taskHeader, taskBody, true},
		{"session (initialize)", resource, http.Header{}, initialize, false},
	}
	good := func(url, token string) map[string]any { return proofClaims(url, token) }
	with := func(c map[string]any, k string, v any) map[string]any { c[k] = v; return c }
	for _, p := range paths {
		cases := []struct {
			name, authorization string
			proofs              []string
			status              int
			scheme, code        string // the challenge carrying the error, and the error
		}{
			{"valid proof", "DPoP alice", []string{signProof(t, alice, jose.ES256, good(p.url, "alice"), false)}, 200, "", ""},
			{"missing proof", "DPoP alice", nil, 401, "DPoP", "invalid_dpop_proof"},
			{"two proofs", "DPoP alice", []string{signProof(t, alice, jose.ES256, good(p.url, "alice"), false), signProof(t, alice, jose.ES256, good(p.url, "alice"), false)}, 401, "DPoP", "invalid_dpop_proof"},
			{"wrong htm", "DPoP alice", []string{signProof(t, alice, jose.ES256, with(good(p.url, "alice"), "htm", "GET"), false)}, 401, "DPoP", "invalid_dpop_proof"},
			{"wrong htu", "DPoP alice", []string{signProof(t, alice, jose.ES256, with(good(p.url, "alice"), "htu", "https://elsewhere.example/mcp"), false)}, 401, "DPoP", "invalid_dpop_proof"},
			{"stale iat", "DPoP alice", []string{signProof(t, alice, jose.ES256, with(good(p.url, "alice"), "iat", time.Now().Add(-5*time.Minute).Unix()), false)}, 401, "DPoP", "invalid_dpop_proof"},
			{"future iat", "DPoP alice", []string{signProof(t, alice, jose.ES256, with(good(p.url, "alice"), "iat", time.Now().Add(5*time.Minute).Unix()), false)}, 401, "DPoP", "invalid_dpop_proof"},
			{"wrong ath", "DPoP alice", []string{signProof(t, alice, jose.ES256, good(p.url, "bob"), false)}, 401, "DPoP", "invalid_dpop_proof"},
			{"no ath", "DPoP alice", []string{signProof(t, alice, jose.ES256, with(good(p.url, "alice"), "ath", ""), false)}, 401, "DPoP", "invalid_dpop_proof"},
			{"another key than cnf.jkt", "DPoP alice", []string{signProof(t, mallory, jose.ES256, good(p.url, "alice"), false)}, 401, "DPoP", "invalid_token"},
			{"alg none", "DPoP alice", []string{unsignedProof(alice, good(p.url, "alice"))}, 401, "DPoP", "invalid_dpop_proof"},
			{"HS256", "DPoP alice", []string{signProof(t, alice, jose.HS256, good(p.url, "alice"), false)}, 401, "DPoP", "invalid_dpop_proof"},
			{"private key in the header", "DPoP alice", []string{signProof(t, alice, jose.ES256, good(p.url, "alice"), true)}, 401, "DPoP", "invalid_dpop_proof"},
			{"not a JWT", "DPoP alice", []string{"not.a.jwt"}, 401, "DPoP", "invalid_dpop_proof"},
			{"bound token as Bearer", "Bearer alice", nil, 401, "Bearer", "invalid_token"},
			{"bound token as Bearer with a proof", "Bearer alice", []string{signProof(t, alice, jose.ES256, good(p.url, "alice"), false)}, 401, "Bearer", "invalid_token"},
			{"unbound token with a proof", "DPoP bob", []string{signProof(t, mallory, jose.ES256, good(p.url, "bob"), false)}, 401, "DPoP", "invalid_token"},
			{"unreadable cnf as Bearer", "Bearer odd", nil, 401, "Bearer", "invalid_token"},
			{"certificate-bound token as Bearer", "Bearer mtls", nil, 401, "Bearer", "invalid_token"},
			{"bound token as Bearer, tab-separated", "Bearer\talice", nil, 401, "Bearer", "invalid_token"},
			{"unknown token with a valid proof", "DPoP forged", []string{signProof(t, alice, jose.ES256, good(p.url, "forged"), false)}, 401, "DPoP", "invalid_token"},
			{"unbound token as Bearer", "Bearer bob", nil, 200, "", ""},
			{"no token", "", nil, 401, "DPoP", ""},
		}
		for _, tc := range cases {
			t.Run(p.name+"/"+tc.name, func(t *testing.T) {
				is := is.New(t)
				before := ran.Load()
				a := sendProofs(t, p.url, p.header, tc.authorization, tc.proofs, p.body)
				is.Equal(a.status, tc.status) // the status
				if tc.status == 200 && !p.calls {
					return
				}
				if tc.status == 200 {
					// A task's handler runs on after the answer: wait for it,
					// so that the next case counts from after it.
					for deadline := time.Now().Add(5 * time.Second); ran.Load() == before && time.Now().Before(deadline); {
						time.Sleep(time.Millisecond)
					}
					is.True(ran.Load() > before) // the handler ran
					return
				}
				is.Equal(ran.Load(), before) // no handler ran
				is.Equal(a.dpopError(tc.scheme), tc.code)
				is.True(len(a.challenge) == 2) // Bearer and DPoP, both accepted
				is.True(strings.Contains(a.challenge[1], `algs="ES256 `))
				is.True(strings.Contains(a.challenge[1], `resource_metadata="`))
				is.True(!strings.Contains(a.body, "alice") && !strings.Contains(a.body, "jkt") && !strings.Contains(a.body, "forged")) // no internals
			})
		}
	}
}
