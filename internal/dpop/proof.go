package dpop

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// DefaultAlgs returns the asymmetric algorithms a proof may be signed
// with unless the server names others: never "none", never a MAC.
func DefaultAlgs() []jose.SignatureAlgorithm {
	return []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.ES512, jose.EdDSA, jose.PS256, jose.PS384, jose.PS512, jose.RS256}
}

// The RSA keys a proof may be signed with: RFC 7518 §3.3's floor, and a
// ceiling that bounds what verifying costs.
const (
	MinRSABits = 2048
	MaxRSABits = 4096
)

// MaxProofBytes bounds a proof: a DPoP header is a few hundred bytes, an
// RSA key makes it a kilobyte or two.
const MaxProofBytes = 8 << 10

// Check is what a proof must match: the request it came with and what
// the server asks of it.
type Check struct {
	// Method is the request's HTTP method (htm).
	Method string
	// URL is the URL the server is reached at as clients see it (htu):
	// the resource's configured URL, not the Host a proxy passed on.
	URL string
	// AccessToken is the token the proof came with (ath is its hash); a
	// resource server always has one.
	AccessToken string
	// Now is the server's time; Window how far a proof's iat may be from
	// it, before or after (a minute when 0).
	Now    time.Time
	Window time.Duration
	// Algs are the algorithms accepted (DefaultAlgs when nil).
	Algs []jose.SignatureAlgorithm
	// Nonce, when not nil, says whether the proof's nonce is one the
	// server issued and still accepts (RFC 9449 §8); "" when it has none.
	Nonce func(nonce string) bool
}

// Proof is a verified proof.
type Proof struct {
	// JKT is the base64url SHA-256 thumbprint of the proof's key (RFC
	// 7638), which a bound token's cnf.jkt must equal.
	JKT string
	// JTI is the proof's unique id, to be used once within the window.
	JTI string
	// IssuedAt is the proof's iat.
	IssuedAt time.Time
}

// Error is a refusal of a proof. Its text is for the log; a client is
// told the RFC's error code alone.
type Error struct {
	// Code is the RFC's error: "invalid_dpop_proof"; "use_dpop_nonce"
	// when the proof lacks the server's current nonce; "invalid_token"
	// when the token is not bound to the proof's key.
	Code string
	// Reason says what was wrong, for the log.
	Reason string
}

// Error returns the code and the reason.
func (e *Error) Error() string { return e.Code + ": " + e.Reason }

func invalid(format string, args ...any) *Error {
	return &Error{Code: "invalid_dpop_proof", Reason: fmt.Sprintf(format, args...)}
}

// claims are a proof's claims.
type claims struct {
	JTI   string   `json:"jti"`
	HTM   string   `json:"htm"`
	HTU   string   `json:"htu"`
	IAT   *float64 `json:"iat"`
	ATH   string   `json:"ath"`
	Nonce string   `json:"nonce"`
}

// Verify checks proof as RFC 9449 §4.3 says, against c, and returns what
// the caller binds and spends: the key's thumbprint and the jti.
func Verify(proof string, c Check) (Proof, error) {
	if proof == "" {
		return Proof{}, invalid("no DPoP proof")
	}
	if c.AccessToken == "" {
		return Proof{}, invalid("no access token for the proof to be bound to")
	}
	window := c.Window
	if window <= 0 {
		window = time.Minute
	}
	if len(proof) > MaxProofBytes {
		return Proof{}, invalid("the proof is longer than %d bytes", MaxProofBytes)
	}
	algs := c.Algs
	if algs == nil {
		algs = DefaultAlgs()
	}
	jws, err := jose.ParseSignedCompact(proof, algs)
	if err != nil {
		return Proof{}, invalid("not a JWT signed with an accepted algorithm: %v", err)
	}
	if len(jws.Signatures) != 1 {
		return Proof{}, invalid("the proof carries %d signatures", len(jws.Signatures))
	}
	h := jws.Signatures[0].Protected
	if typ, _ := h.ExtraHeaders[jose.HeaderType].(string); !strings.EqualFold(typ, "dpop+jwt") { // a media type: any case
		return Proof{}, invalid("typ %q is not dpop+jwt", typ)
	}
	if !slices.Contains(algs, jose.SignatureAlgorithm(h.Algorithm)) {
		return Proof{}, invalid("alg %q is not accepted", h.Algorithm)
	}
	key := h.JSONWebKey
	switch {
	case key == nil:
		return Proof{}, invalid("no jwk in the header")
	case !key.IsPublic():
		return Proof{}, invalid("the jwk in the header holds a private key")
	case !key.Valid():
		return Proof{}, invalid("the jwk in the header is not a valid key")
	}
	if k, ok := key.Key.(*rsa.PublicKey); ok {
		// A proof is checked before its token: a huge modulus or exponent
		// would let anyone spend the server's CPU (a 20,000-bit key with
		// e = 2^31-1 takes ~50 ms to verify, against ~0.1 ms for ES256).
		if bits := k.N.BitLen(); bits < MinRSABits || bits > MaxRSABits || k.E != 65537 {
			return Proof{}, invalid("an RSA key of %d bits and exponent %d: proofs take keys of %d to %d bits with exponent 65537", bits, k.E, MinRSABits, MaxRSABits)
		}
	}
	payload, err := jws.Verify(key)
	if err != nil {
		return Proof{}, invalid("the signature does not verify with the header's jwk")
	}
	var cl claims
	if err := json.Unmarshal(payload, &cl); err != nil {
		return Proof{}, invalid("the claims are not a JSON object: %v", err)
	}
	switch {
	case cl.JTI == "" || len(cl.JTI) > 256:
		return Proof{}, invalid("no jti, or one longer than 256 bytes")
	case cl.HTM != c.Method:
		return Proof{}, invalid("htm %q is not the request's method %s", cl.HTM, c.Method)
	case !sameURL(cl.HTU, c.URL):
		return Proof{}, invalid("htu %q is not this resource's URL", cl.HTU)
	case cl.IAT == nil:
		return Proof{}, invalid("no iat")
	}
	iat := time.Unix(int64(*cl.IAT), 0)
	if d := c.Now.Sub(iat); d > window || d < -window {
		return Proof{}, invalid("iat %s is not within %v of the server's time", iat.UTC().Format(time.RFC3339), window)
	}
	sum := sha256.Sum256([]byte(c.AccessToken))
	if cl.ATH != base64.RawURLEncoding.EncodeToString(sum[:]) {
		return Proof{}, invalid("ath is not the hash of the access token")
	}
	if c.Nonce != nil && !c.Nonce(cl.Nonce) {
		return Proof{}, &Error{Code: "use_dpop_nonce", Reason: "the proof lacks a nonce the server accepts"}
	}
	thumb, err := key.Thumbprint(crypto.SHA256)
	if err != nil {
		return Proof{}, invalid("the key has no thumbprint: %v", err)
	}
	return Proof{JKT: base64.RawURLEncoding.EncodeToString(thumb), JTI: cl.JTI, IssuedAt: iat}, nil
}

// Bound checks that a token whose cnf.jkt is jkt is bound to p's key
// (§4.3, check 12): a token bound to no key, or to another, is refused
// with invalid_token, as §7.1's example of an invalid key binding is.
func Bound(p Proof, jkt string) error {
	switch {
	case jkt == "":
		return &Error{Code: "invalid_token", Reason: "the access token is not bound to a key (it has no cnf.jkt)"}
	case subtle.ConstantTimeCompare([]byte(jkt), []byte(p.JKT)) != 1:
		return &Error{Code: "invalid_token", Reason: "the access token is bound to another key than the proof's"}
	}
	return nil
}

// sameURL compares htu with the resource's URL as §4.3 asks: without
// query and fragment, after syntax- and scheme-based normalisation (RFC
// 3986 §6.2.2, §6.2.3): scheme and host in lower case, the default port
// left out, an empty path as "/", percent-encodings of unreserved
// characters decoded and the others' hex digits in upper case. A URL with
// user information is none: a proof names a resource, not an account.
// Dot segments are not removed: a proof naming /a/../mcp is refused.
func sameURL(htu, want string) bool {
	a, ok1 := normalURL(htu)
	b, ok2 := normalURL(want)
	return ok1 && ok2 && a == b
}

func normalURL(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" || u.User != nil {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port := u.Port(); port != "" && !(scheme == "https" && port == "443" || scheme == "http" && port == "80") {
		host += ":" + port
	}
	path := normalEscapes(u.EscapedPath())
	if path == "" {
		path = "/"
	}
	return scheme + "://" + host + path, true
}

// normalEscapes decodes the percent-encodings of unreserved characters
// (RFC 3986 §2.3) and writes the others' hex digits in upper case
// (§6.2.2.1): %7E is ~, %2f is %2F.
func normalEscapes(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] != '%' || i+2 >= len(path) {
			b.WriteByte(path[i])
			continue
		}
		v, err := strconv.ParseUint(path[i+1:i+3], 16, 8)
		if err != nil {
			b.WriteByte(path[i])
			continue
		}
		if c := byte(v); c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
		} else {
			b.WriteString(strings.ToUpper(path[i : i+3]))
		}
		i += 2
	}
	return b.String()
}
