package dpop_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/dpop"
	proofs "github.com/vurb-go/vurb/internal/dpop"
	"golang.org/x/oauth2"
)

// nonceServer wants the nonce "n2" in every proof and says so the way
// RFC 9449 §9 does; it echoes the body it got.
func nonceServer(t *testing.T, sends *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sends.Add(1)
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "DPoP ")
		_, err := proofs.Verify(r.Header.Get("DPoP"), proofs.Check{Method: r.Method, URL: "http://" + r.Host + r.URL.Path,
			AccessToken: token, Now: time.Now(), Nonce: func(n string) bool { return n == "n2" }})
		w.Header().Set("DPoP-Nonce", "n2")
		if err != nil {
			w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		io.Copy(w, r.Body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestTransportTakesUpTheServersNonce(t *testing.T) {
	is := is.New(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	signer, _ := dpop.NewSigner(key)
	var sends atomic.Int32
	srv := nonceServer(t, &sends)
	client := &http.Client{Transport: &dpop.Transport{Signer: signer, Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "tok"})}}

	res, err := client.Post(srv.URL+"/mcp", "application/json", strings.NewReader(`{"a":1}`))
	is.NoErr(err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	is.Equal(res.StatusCode, 200)
	is.Equal(string(body), `{"a":1}`) // sent again whole
	is.Equal(sends.Load(), int32(2))  // refused once, then with the nonce

	res, err = client.Post(srv.URL+"/mcp", "application/json", strings.NewReader(`{"b":2}`))
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, 200)
	is.Equal(sends.Load(), int32(3)) // the nonce kept: no refusal
}

func TestTransportWithoutABodyToSendAgainReturnsTheRefusal(t *testing.T) {
	is := is.New(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	signer, _ := dpop.NewSigner(key)
	var sends atomic.Int32
	srv := nonceServer(t, &sends)
	tr := &dpop.Transport{Signer: signer, Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "tok"})}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", io.NopCloser(strings.NewReader("x"))) // no GetBody
	res, err := tr.RoundTrip(req)
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, 401)
	is.Equal(sends.Load(), int32(1))

	_, err = (&dpop.Transport{}).RoundTrip(req)
	is.True(err != nil) // no signer, no source: said, not panicked
}

func TestTransportSignsAgainWhenAProofIsRefused(t *testing.T) {
	is := is.New(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	signer, _ := dpop.NewSigner(key)
	var sends atomic.Int32
	seen := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := sends.Add(1)
		proof := r.Header.Get("DPoP")
		if n == 1 || seen[proof] { // the first as if a balancer had spent it elsewhere
			seen[proof] = true
			w.Header().Set("WWW-Authenticate", `DPoP error="invalid_dpop_proof", algs="ES256"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		seen[proof] = true
		io.Copy(w, r.Body)
	}))
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: &dpop.Transport{Signer: signer, Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "tok"})}}
	res, err := client.Post(srv.URL+"/mcp", "application/json", strings.NewReader(`{"a":1}`))
	is.NoErr(err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	is.Equal(res.StatusCode, 200)
	is.Equal(string(body), `{"a":1}`)
	is.Equal(sends.Load(), int32(2)) // once more, with a new proof, and no more
}

func TestTransportDoesNotRetryOtherRefusals(t *testing.T) {
	is := is.New(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	signer, _ := dpop.NewSigner(key)
	var sends atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sends.Add(1)
		w.Header().Set("WWW-Authenticate", `DPoP error="invalid_token", algs="ES256"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: &dpop.Transport{Signer: signer, Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "tok"})}}
	res, err := client.Post(srv.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, 401)
	is.Equal(sends.Load(), int32(1))
}

func TestTransportSendsTheTokenToItsServerAlone(t *testing.T) {
	is := is.New(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	signer, _ := dpop.NewSigner(key)
	var leaked atomic.Value
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("Authorization") + r.Header.Get("DPoP"))
	}))
	t.Cleanup(elsewhere.Close)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/collect", http.StatusFound)
	}))
	t.Cleanup(server.Close)
	client := &http.Client{Transport: &dpop.Transport{Signer: signer, Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "tok"})}}
	res, err := client.Get(server.URL + "/mcp")
	is.NoErr(err)
	res.Body.Close()
	is.Equal(leaked.Load(), "") // followed, without the token or a proof
}
