package oidc_test

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/oidc"
)

// A server whose clients get tokens from an OpenID Connect issuer: clients
// request them with resource=https://mcp.example.com/mcp (RFC 8707), the
// issuer signs them as JWTs, and the server checks them with the issuer's
// keys. The example needs a real issuer and a real host, so it is not run.
func ExampleNewVerifier() {
	ctx := context.Background()
	const (
		issuer   = "https://auth.example.com/"
		resource = "https://mcp.example.com/mcp" // where clients reach this server
	)
	app := vurb.New(vurb.WithName("projects"))
	vurb.Query(app, "projects.list", func(context.Context, struct{}) ([]string, error) {
		return []string{"p1", "p2"}, nil
	})

	verify, err := oidc.NewVerifier(ctx, issuer, resource)
	if err != nil {
		log.Fatal(err) // the issuer cannot be reached, or its discovery document names another issuer
	}
	log.Fatal(app.ListenAndServe(ctx, ":8080", vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{issuer},
		ScopesSupported:      []string{"projects:read", "projects:write"},
	}, nil)))
}
