package main

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/vurb-go/vurb/dpop"
	"golang.org/x/oauth2"
)

// dpopTransport is the transport of -dpop-key: the token of h's
// "Authorization: DPoP <token>" sent with a proof signed by the key in
// the PEM file keyFile, over next.
func dpopTransport(keyFile string, h http.Header, next http.RoundTripper) (*dpop.Transport, error) {
	scheme, token, _ := strings.Cut(strings.TrimSpace(h.Get("Authorization")), " ")
	if !strings.EqualFold(scheme, "DPoP") || strings.TrimSpace(token) == "" {
		return nil, usagef(`-dpop-key signs proofs for a DPoP-bound token: give the token with -H "Authorization: DPoP <token>"`)
	}
	key, err := readPrivateKey(keyFile)
	if err != nil {
		return nil, usagef("-dpop-key %s: %v", keyFile, err)
	}
	signer, err := dpop.NewSigner(key)
	if err != nil {
		return nil, usagef("-dpop-key %s: %v", keyFile, err)
	}
	src := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: strings.TrimSpace(token), TokenType: "DPoP"})
	return &dpop.Transport{Signer: signer, Source: src, Base: next}, nil
}

// readPrivateKey reads the first private key of a PEM file: PKCS #8,
// SEC 1 (EC) or PKCS #1 (RSA), as openssl writes them.
func readPrivateKey(file string) (crypto.Signer, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return nil, fmt.Errorf("no PEM private key in it (PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY)")
		}
		var key any
		switch block.Type {
		case "PRIVATE KEY":
			key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		case "EC PRIVATE KEY":
			key, err = x509.ParseECPrivateKey(block.Bytes)
		case "RSA PRIVATE KEY":
			key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		signer, ok := key.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("a %T cannot sign", key)
		}
		return signer, nil
	}
}
