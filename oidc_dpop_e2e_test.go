package vurb_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/dpop"
	"github.com/vurb-go/vurb/oidc"
	"golang.org/x/oauth2"
)

// TestOpenIDProviderDPoPBoundTokens: oidc-provider, with its DPoP feature
// on, binds the tokens it issues to the key of the proof a client sends
// to its token endpoint; vurb, with the oidc verifier and WithDPoP, takes
// such a token from the go-sdk's client through dpop.Transport on both
// generations, and refuses it from a thief: with another key, as Bearer,
// or replayed.
func TestOpenIDProviderDPoPBoundTokens(t *testing.T) {
	if testing.Short() {
		t.Skip("installs and runs an OpenID Connect provider")
	}
	is := is.New(t)
	provider := startOpenIDProvider(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	app := vurb.New()
	vurb.Query(app, "account.who", func(ctx context.Context, _ noInput) (string, error) {
		return vurb.CallerFrom(ctx).Subject(), nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	resource := "http://" + ln.Addr().String() + "/mcp"
	verify, err := oidc.NewVerifier(ctx, provider.issuer, resource)
	must(t, err)
	serving, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() {
		served <- app.ServeListener(serving, ln, vurb.WithShutdownGrace(time.Second),
			vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{Resource: resource, AuthorizationServers: []string{provider.issuer}}, nil),
			vurb.WithDPoP(dpop.Policy{}))
	}()
	t.Cleanup(func() { stop(); <-served })

	newSigner := func() *dpop.Signer {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		must(t, err)
		s, err := dpop.NewSigner(k)
		must(t, err)
		return s
	}
	alice, mallory := newSigner(), newSigner()
	token, tokenType := provider.boundToken("alice", resource, "", alice)
	is.Equal(tokenType, "DPoP")
	cnf, _ := jwtPart(t, token, 1)["cnf"].(map[string]any)
	is.Equal(cnf["jkt"], alice.JKT()) // bound by the provider, to alice's key

	connect := func(signer *dpop.Signer, protocol string) (*mcp.ClientSession, error) {
		tr := &dpop.Transport{Signer: signer, Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token, TokenType: tokenType})}
		return mcp.NewClient(&mcp.Implementation{Name: "dpop", Version: "1"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: resource, HTTPClient: &http.Client{Transport: tr}, DisableStandaloneSSE: true},
			&mcp.ClientSessionOptions{ProtocolVersion: protocol})
	}
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		cs, err := connect(alice, protocol)
		is.NoErr(err)
		res, err := callRaw(t, cs, "account_who", "{}")
		is.NoErr(err)
		is.Equal(text(res), "alice") // the client credentials grant's subject is the client
		cs.Close()

		_, err = connect(mallory, protocol) // the token stolen, signed for with another key
		is.True(err != nil)
		_, _, err = bearerClient(ctx, resource, protocol, token) // and sent as Bearer
		is.True(err != nil)
	}

	// A token asked for without a proof is a bearer token, taken as one
	// while DPoP is only accepted, and useless with the DPoP scheme.
	plain, plainType := provider.boundToken("bob", resource, "", nil)
	is.Equal(plainType, "Bearer")
	cs, _, err := bearerClient(ctx, resource, "2026-07-28", plain)
	is.NoErr(err)
	cs.Close()
	header, body := sessionlessCall("account_who")
	proof, err := alice.Proof(http.MethodPost, resource, plain, "")
	is.NoErr(err)
	a := sendProofs(t, resource, header, "DPoP "+plain, []string{proof}, body)
	is.Equal(a.status, 401)
	is.Equal(a.dpopError("DPoP"), "invalid_token")
}
