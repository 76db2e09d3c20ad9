package oidc_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/coreos/go-oidc/v3/oidc/oidctest"
	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb/oidc"
)

const resource = "https://mcp.example.com/mcp"

// issuer is go-oidc's test OpenID provider: discovery and a key set, with
// one RSA key whose tokens the test signs.
type issuer struct {
	url string
	key *rsa.PrivateKey
}

func newIssuer(t *testing.T) *issuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	s := &oidctest.Server{PublicKeys: []oidctest.PublicKey{{PublicKey: key.Public(), KeyID: "k1", Algorithm: gooidc.RS256}}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.SetIssuer(srv.URL)
	return &issuer{url: srv.URL, key: key}
}

// sign returns a token with claims, completed with iss, exp and sub
// unless claims set them ("-" drops one).
func (i *issuer) sign(claims map[string]string) string {
	full := map[string]string{
		"iss": strconv.Quote(i.url),
		"aud": strconv.Quote(resource),
		"sub": `"alice"`,
		"exp": strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10),
	}
	for k, v := range claims {
		full[k] = v
	}
	var b strings.Builder
	for k, v := range full {
		if v == "-" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(k) + ":" + v)
	}
	return oidctest.SignIDToken(i.key, "k1", gooidc.RS256, "{"+b.String()+"}")
}

func TestVerifier(t *testing.T) {
	iss := newIssuer(t)
	ctx := context.Background()
	verify, err := oidc.NewVerifier(ctx, iss.url, resource)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	for _, tc := range []struct {
		name    string
		token   string
		scopes  []string
		refused string
	}{
		{"scope claim", iss.sign(map[string]string{"scope": `"projects:read projects:write"`}), []string{"projects:read", "projects:write"}, ""},
		{"scp list (Okta)", iss.sign(map[string]string{"scp": `["projects:read","admin"]`}), []string{"projects:read", "admin"}, ""},
		{"scp string (Entra ID) and scope", iss.sign(map[string]string{"scope": `"a b"`, "scp": `"b c"`}), []string{"a", "b", "c"}, ""},
		{"no scopes", iss.sign(nil), nil, ""},
		{"audience among several", iss.sign(map[string]string{"aud": `["https://other.example", "` + resource + `"]`}), nil, ""},
		{"audience with a trailing slash", iss.sign(map[string]string{"aud": `"` + resource + `/"`}), nil, ""},
		{"another audience", iss.sign(map[string]string{"aud": `"https://other.example/mcp"`}), nil, "the token is for https://other.example/mcp, not for " + resource},
		{"another issuer", iss.sign(map[string]string{"iss": `"https://evil.example"`}), nil, "issued by a different provider"},
		{"expired", iss.sign(map[string]string{"exp": strconv.FormatInt(time.Now().Add(-time.Second).Unix(), 10)}), nil, "token is expired"},
		{"no expiry", iss.sign(map[string]string{"exp": "-"}), nil, "token is expired"},
		{"no subject", iss.sign(map[string]string{"sub": "-"}), nil, "names no subject"},
		{"another key", oidctest.SignIDToken(other, "k1", gooidc.RS256, `{"iss":"`+iss.url+`","aud":"`+resource+`","sub":"alice","exp":9999999999}`), nil, "failed to verify"},
		{"not a JWT", "opaque-token", nil, "malformed jwt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			info, err := verify(ctx, tc.token, nil)
			if tc.refused != "" {
				is.True(errors.Is(err, auth.ErrInvalidToken)) // the SDK answers 401
				is.True(strings.Contains(err.Error(), tc.refused))
				return
			}
			is.NoErr(err)
			is.Equal(info.UserID, "alice")
			is.Equal(info.Scopes, tc.scopes)
			is.True(time.Until(info.Expiration) > 59*time.Minute)
			is.Equal(info.Extra["iss"], iss.url) // every claim
		})
	}
}

func TestVerifierWithoutDiscovery(t *testing.T) {
	is := is.New(t)
	iss := newIssuer(t)
	ctx := context.Background()
	verify, err := oidc.NewVerifier(ctx, iss.url, resource, oidc.WithJWKSURL(iss.url+"/keys"), oidc.WithSigningAlgorithms(gooidc.RS256))
	is.NoErr(err)
	info, err := verify(ctx, iss.sign(map[string]string{"scope": `"projects:read"`}), nil)
	is.NoErr(err)
	is.Equal(info.Scopes, []string{"projects:read"})
}

func TestNewVerifierFails(t *testing.T) {
	is := is.New(t)
	iss := newIssuer(t)
	ctx := context.Background()
	_, err := oidc.NewVerifier(ctx, iss.url+"/elsewhere", resource)
	is.True(err != nil) // no discovery document there
	is.True(strings.Contains(err.Error(), "oidc: discovering "+iss.url+"/elsewhere"))
	_, err = oidc.NewVerifier(ctx, iss.url, "")
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "needs the resource"))
}
