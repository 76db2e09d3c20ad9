package dpop_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/dpop"
	proofs "github.com/vurb-go/vurb/internal/dpop"
)

func TestSignerSignsProofsTheServerTakes(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	rsa2048, _ := rsa.GenerateKey(rand.Reader, 2048)
	for _, key := range []crypto.Signer{p256, p384, ed, rsa2048} {
		is := is.New(t)
		s, err := dpop.NewSigner(key)
		is.NoErr(err)
		proof, err := s.Proof("POST", "https://user@mcp.example.com/mcp?q=1#f", "tok", "n1")
		is.NoErr(err)
		p, err := proofs.Verify(proof, proofs.Check{Method: "POST", URL: "https://mcp.example.com/mcp", AccessToken: "tok",
			Now: time.Now(), Nonce: func(n string) bool { return n == "n1" }})
		is.NoErr(err)            // query and fragment left out of htu
		is.Equal(p.JKT, s.JKT()) // the thumbprint a token binds to
		again, err := s.Proof("POST", "https://mcp.example.com/mcp", "tok", "n1")
		is.NoErr(err)
		q, err := proofs.Verify(again, proofs.Check{Method: "POST", URL: "https://mcp.example.com/mcp", AccessToken: "tok", Now: time.Now()})
		is.NoErr(err)
		is.True(q.JTI != "" && q.JTI != p.JTI) // a jti of its own each
	}
}

func TestNewSignerRefusesWeakOrUnknownKeys(t *testing.T) {
	p224, _ := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	rsa1024, _ := rsa.GenerateKey(rand.Reader, 1024)
	for _, tc := range []struct {
		key  crypto.Signer
		want string
	}{
		{p224, "P-224; use P-256"},
		{rsa1024, "an RSA key of 1024 bits and exponent 65537; servers take 2048 to 4096 bits"},
		{nil, "use an *ecdsa.PrivateKey"},
	} {
		is := is.New(t)
		_, err := dpop.NewSigner(tc.key)
		is.True(err != nil && strings.Contains(err.Error(), tc.want))
	}
}
