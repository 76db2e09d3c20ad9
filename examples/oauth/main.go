// Command oauth is a vurb server that only answers callers holding an
// access token from an OpenID Connect issuer: an OAuth 2.1 resource
// server, as the MCP authorization spec describes one.
//
//	ISSUER=https://auth.example.com/ go run ./examples/oauth
//
// It serves http://localhost:8080/mcp (on 127.0.0.1; ADDR binds another
// address) and, for clients to discover the
// issuer, the RFC 9728 metadata at
// http://localhost:8080/.well-known/oauth-protected-resource/mcp. Clients
// request tokens with resource=http://localhost:8080/mcp (RFC 8707); set
// RESOURCE to the URL clients reach the server at when it is not that.
package main

import (
	"cmp"
	"context"
	"log"
	"os"
	"os/signal"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/oidc"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	issuer := os.Getenv("ISSUER")
	resource := cmp.Or(os.Getenv("RESOURCE"), "http://localhost:8080/mcp") // https in production

	app := vurb.New(vurb.WithName("projects"), vurb.WithVersion("1.0.0"))
	vurb.Query(app, "projects.list", func(ctx context.Context, _ struct{}) ([]string, error) {
		return []string{"apollo", "gemini"}, nil
	})

	//docs:region verify
	// Discovery now; the issuer's keys when the first token arrives, and
	// again whenever a token is signed with a key not seen before.
	verify, err := oidc.NewVerifier(ctx, issuer, resource)
	if err != nil {
		log.Fatal(err)
	}
	// Loopback unless ADDR says otherwise: this serves plain HTTP, and a
	// bearer token over plain HTTP on a network can be read by anyone on
	// the path. In production, terminate TLS in front of it (or serve
	// HTTPS) and set RESOURCE to the https URL.
	addr := cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")
	err = app.ListenAndServe(ctx, addr, vurb.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{issuer},
		ScopesSupported:      []string{"projects:read", "projects:write"},
	}, nil))
	if err != nil {
		log.Fatal(err)
	}
	//docs:endregion
}
