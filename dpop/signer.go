package dpop

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	proofs "github.com/vurb-go/vurb/internal/dpop"
)

// A Signer signs DPoP proofs with a client's key. It is safe for
// concurrent use.
type Signer struct {
	signer jose.Signer
	jkt    string
}

// NewSigner returns a Signer for key: an ECDSA key on P-256, P-384 or
// P-521 (ES256, ES384, ES512), an Ed25519 key (EdDSA) or an RSA key of
// 2048 to 4096 bits with exponent 65537 (PS256), the keys a vurb server
// takes.
func NewSigner(key crypto.Signer) (*Signer, error) {
	var alg jose.SignatureAlgorithm
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			alg = jose.ES256
		case elliptic.P384():
			alg = jose.ES384
		case elliptic.P521():
			alg = jose.ES512
		default:
			return nil, fmt.Errorf("dpop: NewSigner: an ECDSA key on %s; use P-256, P-384 or P-521", k.Curve.Params().Name)
		}
	case ed25519.PrivateKey:
		alg = jose.EdDSA
	case *rsa.PrivateKey:
		if bits := k.N.BitLen(); bits < proofs.MinRSABits || bits > proofs.MaxRSABits || k.E != 65537 {
			return nil, fmt.Errorf("dpop: NewSigner: an RSA key of %d bits and exponent %d; servers take %d to %d bits with exponent 65537",
				bits, k.E, proofs.MinRSABits, proofs.MaxRSABits)
		}
		alg = jose.PS256
	default:
		return nil, fmt.Errorf("dpop: NewSigner: a %T; use an *ecdsa.PrivateKey, an ed25519.PrivateKey or an *rsa.PrivateKey", key)
	}
	opts := (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt")
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		return nil, fmt.Errorf("dpop: NewSigner: %w", err)
	}
	pub := jose.JSONWebKey{Key: key.Public()}
	thumb, err := pub.Thumbprint(crypto.SHA256)
	if err != nil {
		return nil, fmt.Errorf("dpop: NewSigner: %w", err)
	}
	return &Signer{signer: s, jkt: base64.RawURLEncoding.EncodeToString(thumb)}, nil
}

// JKT is the key's RFC 7638 thumbprint, base64url: what a token bound to
// the key carries as cnf.jkt, and what a client may send as dpop_jkt
// when it asks for an authorization code.
func (s *Signer) JKT() string { return s.jkt }

// Proof signs a proof for a request of method to target, which is sent
// without its user information, query and fragment (htu). accessToken is the token the
// request carries ("" for a request to the token endpoint, which carries
// none); nonce is the server's latest DPoP-Nonce, or "".
func (s *Signer) Proof(method, target, accessToken, nonce string) (string, error) {
	u, err := url.Parse(target)
	if err != nil {
		return "", fmt.Errorf("dpop: proof for %q: %w", target, err)
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	jti := make([]byte, 16)
	rand.Read(jti)
	claims := map[string]any{
		"jti": base64.RawURLEncoding.EncodeToString(jti),
		"htm": method,
		"htu": u.String(),
		"iat": time.Now().Unix(),
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	jws, err := s.signer.Sign(payload)
	if err != nil {
		return "", fmt.Errorf("dpop: signing a proof: %w", err)
	}
	return jws.CompactSerialize()
}
