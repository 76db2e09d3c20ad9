package dpop

import (
	"time"

	proofs "github.com/vurb-go/vurb/internal/dpop"
)

// Policy is what a resource server asks of DPoP: see vurb.WithDPoP.
type Policy struct {
	// Required refuses every token but a DPoP-bound one with its proof.
	// When false, DPoP-bound tokens are accepted with the DPoP scheme and
	// unbound tokens still as Bearer; a bound token is refused as Bearer
	// either way (RFC 9449 §7.2).
	Required bool
	// Algs are the JWS algorithms a proof may be signed with, advertised
	// in the protected resource metadata; nil means DefaultAlgs. Only
	// asymmetric algorithms are accepted: "none" or a MAC panics.
	Algs []string
	// Window is how far a proof's iat may be from the server's clock,
	// before or after (DefaultWindow when 0; a second at least, as iat is
	// in seconds). A proof's jti is remembered for as long as the proof
	// could be accepted.
	Window time.Duration
	// Nonces makes each proof carry a nonce the server issued (RFC 9449
	// §8), which bounds how long a proof signed in advance stays useful.
	// A request without a current one is refused with use_dpop_nonce and
	// a fresh nonce in the DPoP-Nonce header; every answer to a DPoP
	// request carries the current one. Nonces are derived from the
	// request-state keys (WithRequestStateKeys), so every replica accepts
	// the ones any replica issued.
	Nonces bool
	// NonceLifetime is how long a nonce is issued for (DefaultNonceLifetime
	// when 0); one is accepted for up to twice that.
	NonceLifetime time.Duration
}

// DefaultWindow is how far a proof's iat may be from the server's clock
// unless the Policy says: a minute, for clocks a little apart.
const DefaultWindow = time.Minute

// DefaultNonceLifetime is how long a server nonce is issued for unless
// the Policy says.
const DefaultNonceLifetime = 5 * time.Minute

// DefaultAlgs returns the algorithms a proof may be signed with unless
// the Policy names others: ECDSA, EdDSA and RSA, never a MAC or "none".
func DefaultAlgs() []string {
	var out []string
	for _, a := range proofs.DefaultAlgs() {
		out = append(out, string(a))
	}
	return out
}
