package dpop_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/matryer/is"
	"github.com/vurb-go/vurb/internal/dpop"
)

const resource = "https://mcp.example.com/mcp"

var now = time.Unix(1_800_000_000, 0)

// client is a DPoP client: its key and how it signs proofs.
type client struct{ key *ecdsa.PrivateKey }

func newClient(t testing.TB) client {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return client{k}
}

func ath(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// proof signs claims as a client does: ES256, typ dpop+jwt, its public
// key in the header.
func (c client) proof(t testing.TB, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt")
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: c.key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	jws, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := jws.CompactSerialize()
	return out
}

// handmade is a compact JWT of the header and claims given, signed by
// sign (nil for no signature).
func handmade(header, claims map[string]any, sign func([]byte) []byte) string {
	h, _ := json.Marshal(header)
	c, _ := json.Marshal(claims)
	input := base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(c)
	var sig []byte
	if sign != nil {
		sig = sign([]byte(input))
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig)
}

func (c client) jkt(t *testing.T) string {
	jwk := jose.JSONWebKey{Key: c.key.Public()}
	th, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(th)
}

func check(token string) dpop.Check {
	return dpop.Check{Method: "POST", URL: resource, AccessToken: token, Now: now, Window: time.Minute}
}

func good(token string) map[string]any {
	return map[string]any{"jti": "j-1", "htm": "POST", "htu": resource, "iat": now.Unix(), "ath": ath(token)}
}

func with(claims map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for kk, vv := range claims {
		out[kk] = vv
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

func TestAValidProofGivesItsKeyAndJTI(t *testing.T) {
	is := is.New(t)
	c := newClient(t)
	p, err := dpop.Verify(c.proof(t, good("tok")), check("tok"))
	is.NoErr(err)
	is.Equal(p.JKT, c.jkt(t))
	is.Equal(p.JTI, "j-1")
	is.NoErr(dpop.Bound(p, c.jkt(t)))
	var e *dpop.Error
	is.True(errors.As(dpop.Bound(p, newClient(t).jkt(t)), &e)) // a token bound to another key
	is.Equal(e.Code, "invalid_token")
	is.True(errors.As(dpop.Bound(p, ""), &e)) // a token bound to none
	is.Equal(e.Code, "invalid_token")
	// htu as §4.3 normalises it: case, default port, no query or fragment,
	// an unreserved character's escape.
	_, err = dpop.Verify(c.proof(t, with(good("tok"), "htu", "HTTPS://MCP.example.com:443/%6Dcp?x=1#f")), check("tok"))
	is.NoErr(err)
	_, err = dpop.Verify(c.proof(t, good("tok")), dpop.Check{Method: "POST", URL: resource, AccessToken: "tok", Now: now}) // the default window
	is.NoErr(err)
}

// TestProofsRefused: every way a proof can be wrong is refused as
// invalid_dpop_proof (or use_dpop_nonce), saying why in the log's words.
func TestProofsRefused(t *testing.T) {
	c := newClient(t)
	pub := jose.JSONWebKey{Key: c.key.Public()}
	pubJSON, _ := pub.MarshalJSON()
	var pubMap map[string]any
	_ = json.Unmarshal(pubJSON, &pubMap)
	priv := jose.JSONWebKey{Key: c.key}
	privJSON, _ := priv.MarshalJSON()
	var privMap map[string]any
	_ = json.Unmarshal(privJSON, &privMap)
	garbage := func([]byte) []byte { return []byte("not a signature") }
	// rsaKey is the jwk of a made-up RSA public key of bytes*8 bits and
	// exponent e: refused before its signature is checked.
	rsaKey := func(bytes int, e []byte) map[string]any {
		n := make([]byte, bytes)
		rand.Read(n)
		n[0] |= 0x80
		return map[string]any{"kty": "RSA", "n": base64.RawURLEncoding.EncodeToString(n), "e": base64.RawURLEncoding.EncodeToString(e)}
	}
	for _, tc := range []struct {
		name, proof, want string
		check             dpop.Check
	}{
		{"missing", "", "no DPoP proof", check("tok")},
		{"not a JWT", "garbage", "not a JWT", check("tok")},
		{"alg none", handmade(map[string]any{"alg": "none", "typ": "dpop+jwt", "jwk": pubMap}, good("tok"), nil), "not a JWT signed with an accepted algorithm", check("tok")},
		{"HS256", handmade(map[string]any{"alg": "HS256", "typ": "dpop+jwt", "jwk": pubMap}, good("tok"), func([]byte) []byte { return []byte("mac") }), "not a JWT signed with an accepted algorithm", check("tok")},
		{"private key in the header", handmade(map[string]any{"alg": "ES256", "typ": "dpop+jwt", "jwk": privMap}, good("tok"), garbage), "must be public key", check("tok")}, // go-jose refuses it first
		{"no jwk", handmade(map[string]any{"alg": "ES256", "typ": "dpop+jwt"}, good("tok"), garbage), "no jwk", check("tok")},
		{"wrong typ", handmade(map[string]any{"alg": "ES256", "typ": "JWT", "jwk": pubMap}, good("tok"), garbage), `typ "JWT" is not dpop+jwt`, check("tok")},
		{"bad signature", handmade(map[string]any{"alg": "ES256", "typ": "dpop+jwt", "jwk": pubMap}, good("tok"), garbage), "does not verify", check("tok")},
		{"wrong htm", c.proof(t, with(good("tok"), "htm", "GET")), `htm "GET" is not the request's method POST`, check("tok")},
		{"wrong htu", c.proof(t, with(good("tok"), "htu", "https://evil.example/mcp")), "htu", check("tok")},
		{"htu of another path", c.proof(t, with(good("tok"), "htu", "https://mcp.example.com/other")), "htu", check("tok")},
		{"htu with an encoded slash", c.proof(t, with(good("tok"), "htu", "https://mcp.example.com/a%2Fmcp")), "htu", dpop.Check{Method: "POST", URL: "https://mcp.example.com/a/mcp", AccessToken: "tok", Now: now, Window: time.Minute}},
		{"htu with credentials", c.proof(t, with(good("tok"), "htu", "https://evil@mcp.example.com/mcp")), "htu", check("tok")},
		{"no access token", c.proof(t, good("tok")), "no access token", check("")},
		{"stale iat", c.proof(t, with(good("tok"), "iat", now.Add(-2*time.Minute).Unix())), "iat", check("tok")},
		{"future iat", c.proof(t, with(good("tok"), "iat", now.Add(2*time.Minute).Unix())), "iat", check("tok")},
		{"no iat", c.proof(t, with(good("tok"), "iat", nil)), "no iat", check("tok")},
		{"no jti", c.proof(t, with(good("tok"), "jti", nil)), "no jti", check("tok")},
		{"wrong ath", c.proof(t, good("another token")), "ath", check("tok")},
		{"an EdDSA-only server", c.proof(t, good("tok")), "not a JWT signed with an accepted algorithm", dpop.Check{Method: "POST", URL: resource, AccessToken: "tok", Now: now, Window: time.Minute, Algs: []jose.SignatureAlgorithm{jose.EdDSA}}},
		{"missing nonce", c.proof(t, good("tok")), "use_dpop_nonce", dpop.Check{Method: "POST", URL: resource, AccessToken: "tok", Now: now, Window: time.Minute, Nonce: accepts("n-2")}},
		{"stale nonce", c.proof(t, with(good("tok"), "nonce", "n-1")), "use_dpop_nonce", dpop.Check{Method: "POST", URL: resource, AccessToken: "tok", Now: now, Window: time.Minute, Nonce: accepts("n-2")}},
		{"oversized", strings.Repeat("a", dpop.MaxProofBytes+1), "longer than", check("tok")},
		{"a huge RSA key", handmade(map[string]any{"alg": "PS256", "typ": "dpop+jwt", "jwk": rsaKey(dpop.MaxRSABits/8+8, []byte{1, 0, 1})}, good("tok"), garbage), "an RSA key of 4160 bits", check("tok")},
		{"a short RSA key", handmade(map[string]any{"alg": "PS256", "typ": "dpop+jwt", "jwk": rsaKey(128, []byte{1, 0, 1})}, good("tok"), garbage), "an RSA key of 1024 bits", check("tok")},
		{"an RSA key of a huge exponent", handmade(map[string]any{"alg": "PS256", "typ": "dpop+jwt", "jwk": rsaKey(256, []byte{0x7f, 0xff, 0xff, 0xff})}, good("tok"), garbage), "exponent 2147483647", check("tok")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			_, err := dpop.Verify(tc.proof, tc.check)
			is.True(err != nil)
			var e *dpop.Error
			is.True(errors.As(err, &e))
			if tc.want == "use_dpop_nonce" {
				is.Equal(e.Code, "use_dpop_nonce")
				return
			}
			is.Equal(e.Code, "invalid_dpop_proof")
			if !strings.Contains(e.Reason, tc.want) {
				t.Errorf("refused for %q, want %q", e.Reason, tc.want)
			}
		})
	}
	// The nonce, when the server asks for one, carried.
	_, err := dpop.Verify(c.proof(t, with(good("tok"), "nonce", "n-2")), dpop.Check{Method: "POST", URL: resource, AccessToken: "tok", Now: now, Window: time.Minute, Nonce: accepts("n-2")})
	is.New(t).NoErr(err)
}

// accepts is a server that issued the one nonce n.
func accepts(n string) func(string) bool { return func(got string) bool { return got == n } }
