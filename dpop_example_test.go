package vurb_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/dpop"
	"golang.org/x/oauth2"
)

// A server that takes DPoP-bound tokens only, and a go-sdk client that
// sends them with a proof through dpop.Transport. The token stolen and
// sent as a bearer token is refused.
func ExampleWithDPoP() {
	ctx := context.Background()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader) // the client's key
	signer, _ := dpop.NewSigner(key)

	app := vurb.New()
	vurb.Query(app, "account.who", func(ctx context.Context, _ struct{}) (string, error) {
		return vurb.CallerFrom(ctx).Subject(), nil
	})
	// The authorization server bound alice's token to the client's key:
	// its cnf.jkt is the key's thumbprint (the oidc verifier reads it
	// from the JWT; this verifier knows the one token).
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "alice-token" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "alice", Expiration: time.Now().Add(time.Hour),
			Extra: map[string]any{"cnf": map[string]any{"jkt": signer.JKT()}}}, nil
	}
	srv := httptest.NewUnstartedServer(nil)
	resource := "http://" + srv.Listener.Addr().String() + "/mcp"
	srv.Config.Handler = app.HTTPHandler(
		vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{Resource: resource}, nil),
		vurb.WithDPoP(dpop.Policy{Required: true, Algs: []string{"ES256"}}))
	srv.Start()
	defer srv.Close()

	client := &http.Client{Transport: &dpop.Transport{
		Signer: signer,
		Source: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "alice-token", TokenType: "DPoP"}),
	}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: resource, HTTPClient: client}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "account_who"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)

	stolen, _ := http.NewRequest(http.MethodPost, resource, strings.NewReader(`{}`))
	stolen.Header.Set("Authorization", "Bearer alice-token")
	resp, err := http.DefaultClient.Do(stolen)
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	challenge, _, _ := strings.Cut(resp.Header.Get("WWW-Authenticate"), ", resource_metadata")
	fmt.Println(resp.StatusCode, challenge)
	// Output:
	// alice
	// 401 DPoP error="invalid_token", algs="ES256"
}
