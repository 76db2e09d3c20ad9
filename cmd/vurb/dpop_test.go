package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	vurbapp "github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/dpop"
)

// TestCallADPoPServer: a server that takes DPoP-bound tokens only is
// inspected and called with the token in -H and its key in -dpop-key;
// without the key vurb says how to give it.
func TestCallADPoPServer(t *testing.T) {
	is := is.New(t)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	is.NoErr(err)
	der, err := x509.MarshalPKCS8PrivateKey(key)
	is.NoErr(err)
	keyFile := filepath.Join(t.TempDir(), "key.pem")
	is.NoErr(os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600))
	signer, err := dpop.NewSigner(key)
	is.NoErr(err)

	app := vurbapp.New()
	vurbapp.Query(app, "account.who", func(ctx context.Context, _ struct{}) (string, error) {
		return vurbapp.CallerFrom(ctx).Subject(), nil
	})
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "alice-token" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "alice", Expiration: time.Now().Add(time.Hour),
			Extra: map[string]any{"cnf": map[string]any{"jkt": signer.JKT()}}}, nil
	}
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String() + "/mcp"
	srv.Config.Handler = app.HTTPHandler(vurbapp.WithBearerAuth(verify, &oauthex.ProtectedResourceMetadata{Resource: url}, nil),
		vurbapp.WithDPoP(dpop.Policy{Required: true}))
	srv.Start()
	t.Cleanup(srv.Close)
	try := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), append(args, "-q", "-timeout", "20s"), &out, &errOut)
		return code, out.String(), errOut.String()
	}

	code, out, stderr := try("call", url, "account_who", "-H", "Authorization: DPoP alice-token", "-dpop-key", keyFile)
	is.Equal(stderr, "")
	is.Equal(code, 0)
	is.True(strings.Contains(out, "alice"))

	code, _, stderr = try("inspect", url)
	is.Equal(code, exitTrouble)
	is.True(strings.Contains(stderr, `give them with -H "Authorization: DPoP <token>" -dpop-key <the PEM file of the key the token is bound to>`))

	code, _, stderr = try("inspect", url, "-H", "Authorization: Bearer alice-token", "-dpop-key", keyFile)
	is.Equal(code, exitUsage)
	is.True(strings.Contains(stderr, `give the token with -H "Authorization: DPoP <token>"`))

	code, _, stderr = try("inspect", url, "-H", "Authorization: DPoP alice-token", "-dpop-key", filepath.Join(t.TempDir(), "missing.pem"))
	is.Equal(code, exitUsage)
	is.True(strings.Contains(stderr, "missing.pem"))
}
