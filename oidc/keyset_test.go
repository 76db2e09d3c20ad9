package oidc_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/coreos/go-oidc/v3/oidc/oidctest"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb/oidc"
)

// rotatingIssuer is an OpenID issuer on loopback whose published keys the
// test replaces, and which counts the fetches of its key set.
type rotatingIssuer struct {
	url     string
	fetches atomic.Int32

	mu   sync.Mutex
	keys map[string]*rsa.PrivateKey // by key id
}

func newRotatingIssuer(t *testing.T) *rotatingIssuer {
	t.Helper()
	iss := &rotatingIssuer{}
	srv := httptest.NewServer(iss)
	t.Cleanup(srv.Close)
	iss.url = srv.URL
	iss.rotate(t, "k1")
	return iss
}

// rotate publishes a new key named kid in place of all others.
func (i *rotatingIssuer) rotate(t *testing.T, kid string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.keys = map[string]*rsa.PrivateKey{kid: key}
}

func (i *rotatingIssuer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/.well-known/openid-configuration":
		json.NewEncoder(w).Encode(map[string]any{
			"issuer":                                i.url,
			"jwks_uri":                              i.url + "/keys",
			"id_token_signing_alg_values_supported": []string{"RS256"},
		})
	case "/keys":
		i.fetches.Add(1)
		i.mu.Lock()
		var set jose.JSONWebKeySet
		for kid, key := range i.keys {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: key.Public(), KeyID: kid, Algorithm: "RS256", Use: "sig"})
		}
		i.mu.Unlock()
		json.NewEncoder(w).Encode(set)
	default:
		http.NotFound(w, r)
	}
}

// sign returns a token for resource, signed with the published key kid.
func (i *rotatingIssuer) sign(kid string) string {
	i.mu.Lock()
	key := i.keys[kid]
	i.mu.Unlock()
	return signWith(key, kid, i.url)
}

func signWith(key *rsa.PrivateKey, kid, issuer string) string {
	claims := `{"iss":` + strconv.Quote(issuer) + `,"aud":` + strconv.Quote(resource) +
		`,"sub":"alice","exp":` + strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10) + `}`
	return oidctest.SignIDToken(key, kid, gooidc.RS256, claims)
}

// forgeries returns n tokens with every claim right but signed with
// another key: half name a key id the issuer never published, half name
// its key "k1" (a bad signature); every fifth names none.
func forgeries(t *testing.T, issuer string, n int) []string {
	t.Helper()
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, n)
	for j := range out {
		kid := "forged-" + strconv.Itoa(j)
		switch {
		case j%5 == 0:
			kid = ""
		case j%2 == 0:
			kid = "k1"
		}
		out[j] = signWith(other, kid, issuer)
	}
	return out
}

// refused asserts that verify refuses token as go-sdk's auth answers 401.
func refused(t *testing.T, verify auth.TokenVerifier, token, why string) {
	t.Helper()
	_, err := verify(context.Background(), token, nil)
	if !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), why) {
		t.Fatalf("got %v, want an invalid token because %q", err, why)
	}
}

// Forged tokens cost the issuer no fetch of its keys beyond one per
// interval, sent one after the other or all at once; go-oidc's key set
// fetched once per forged token (300 fetches in 0.22 s).
func TestForgedTokensDoNotFetchKeys(t *testing.T) {
	ctx := context.Background()

	t.Run("after a real token", func(t *testing.T) {
		is := is.New(t)
		iss := newRotatingIssuer(t)
		verify, err := oidc.NewVerifier(ctx, iss.url, resource, oidc.WithKeyRefetchInterval(time.Hour))
		is.NoErr(err)
		_, err = verify(ctx, iss.sign("k1"), nil)
		is.NoErr(err)
		is.Equal(iss.fetches.Load(), int32(1)) // the keys, fetched when first needed
		for _, token := range forgeries(t, iss.url, 300) {
			refused(t, verify, token, "they are fetched at most once every 1h0m0s")
		}
		is.Equal(iss.fetches.Load(), int32(1)) // 300 forgeries, no fetch
		_, err = verify(ctx, iss.sign("k1"), nil)
		is.NoErr(err) // the real token still verifies
		is.Equal(iss.fetches.Load(), int32(1))
	})

	t.Run("all at once, first", func(t *testing.T) {
		is := is.New(t)
		iss := newRotatingIssuer(t)
		verify, err := oidc.NewVerifier(ctx, iss.url, resource, oidc.WithKeyRefetchInterval(time.Hour))
		is.NoErr(err)
		var wg sync.WaitGroup
		var accepted atomic.Int32
		for _, token := range forgeries(t, iss.url, 300) {
			wg.Go(func() {
				if _, err := verify(ctx, token, nil); err == nil {
					accepted.Add(1)
				}
			})
		}
		wg.Wait()
		is.Equal(accepted.Load(), int32(0))
		is.Equal(iss.fetches.Load(), int32(1)) // the first forgeries shared the first fetch
		_, err = verify(ctx, iss.sign("k1"), nil)
		is.NoErr(err)
		is.Equal(iss.fetches.Load(), int32(1))
	})
}

// A token signed with a key the issuer rotated to is accepted once the
// interval since the last fetch has passed; forgeries meanwhile do not
// bring that fetch forward, nor add another.
func TestKeyRotation(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	const interval = 3 * time.Second // room for 50 forgeries under -race on a loaded machine
	iss := newRotatingIssuer(t)
	verify, err := oidc.NewVerifier(ctx, iss.url, resource, oidc.WithKeyRefetchInterval(interval))
	is.NoErr(err)
	_, err = verify(ctx, iss.sign("k1"), nil)
	is.NoErr(err)
	fetched := time.Now()

	old := iss.sign("k1")
	iss.rotate(t, "k2")
	rotated := iss.sign("k2")
	refused(t, verify, rotated, `verifies the token (kid "k2"); they are fetched at most once every 3s`)
	for _, token := range forgeries(t, iss.url, 50) {
		refused(t, verify, token, "at most once every 3s")
	}
	is.True(time.Since(fetched) < interval) // else the test proves nothing: a slow machine
	is.Equal(iss.fetches.Load(), int32(1))

	time.Sleep(time.Until(fetched.Add(interval)))
	info, err := verify(ctx, rotated, nil)
	is.NoErr(err) // the rotated key, fetched once the interval passed
	is.Equal(info.UserID, "alice")
	is.Equal(iss.fetches.Load(), int32(2))
	refused(t, verify, old, `verifies the token (kid "k1")`) // no longer published
	is.Equal(iss.fetches.Load(), int32(2))
}

// A failed fetch counts as a fetch: an issuer that is down is not asked
// again for every token, and the refusal says why for the server's log.
func TestKeyFetchFails(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	verify, err := oidc.NewVerifier(ctx, srv.URL, resource, oidc.WithJWKSURL(srv.URL+"/keys"), oidc.WithKeyRefetchInterval(time.Hour))
	is.NoErr(err)
	for j, token := range forgeries(t, srv.URL, 20) {
		why := "fetching the issuer's keys failed"
		if j == 0 {
			why = "503 Service Unavailable"
		}
		refused(t, verify, token, why)
	}
	is.Equal(fetches.Load(), int32(1))
}

func TestWithKeyRefetchIntervalMustBePositive(t *testing.T) {
	is := is.New(t)
	_, err := oidc.NewVerifier(context.Background(), "https://auth.example.com", resource, oidc.WithKeyRefetchInterval(0))
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "the interval must be positive"))
}
