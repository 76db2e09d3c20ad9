package edge

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb/dpop"
	proofs "github.com/vurb-go/vurb/internal/dpop"
	"github.com/vurb-go/vurb/internal/engine"
)

// DPoP is vurb.WithDPoP; see its documentation there.
func DPoP(p dpop.Policy) ServeOption {
	p, err := checkPolicy(p)
	if err != nil {
		panic("vurb: WithDPoP: " + err.Error())
	}
	// Verify is reached from here alone, so that an app without WithDPoP
	// links no proof verification (go-jose's signature code).
	d := &dpopConfig{policy: p, verify: proofs.Verify}
	return func(c *serveConfig) { c.httpSetting("WithDPoP"); c.dpop = d }
}

// dpopConfig is what WithDPoP gives a handler: the checked policy and
// the verifier of proofs.
type dpopConfig struct {
	policy dpop.Policy
	verify func(proof string, c proofs.Check) (proofs.Proof, error)
}

// checkPolicy returns p with its defaults, or says what to change.
func checkPolicy(p dpop.Policy) (dpop.Policy, error) {
	accepted := dpop.DefaultAlgs()
	if p.Algs == nil {
		p.Algs = accepted
	}
	if len(p.Algs) == 0 {
		return p, fmt.Errorf("Policy.Algs is empty: name at least one algorithm, or leave it nil for %v", accepted)
	}
	p.Algs = slices.Clone(p.Algs)
	for _, a := range p.Algs {
		if !slices.Contains(accepted, a) {
			return p, fmt.Errorf("Policy.Algs names %q, which vurb does not verify (never a MAC or none); choose among %v", a, accepted)
		}
	}
	switch {
	case p.Window < 0:
		return p, fmt.Errorf("Policy.Window is %v: give a positive window, or 0 for %v", p.Window, dpop.DefaultWindow)
	case p.Window > 0 && p.Window < time.Second:
		return p, fmt.Errorf("Policy.Window is %v: a proof's iat is in whole seconds; give a second or more, or 0 for %v", p.Window, dpop.DefaultWindow)
	case p.Window == 0:
		p.Window = dpop.DefaultWindow
	}
	switch {
	case p.NonceLifetime < 0:
		return p, fmt.Errorf("Policy.NonceLifetime is %v: give a positive lifetime, or 0 for %v", p.NonceLifetime, dpop.DefaultNonceLifetime)
	case p.NonceLifetime > 0 && !p.Nonces:
		return p, errors.New("Policy.NonceLifetime is set but Policy.Nonces is not: set Nonces for the server to issue nonces")
	case p.NonceLifetime == 0:
		p.NonceLifetime = dpop.DefaultNonceLifetime
	}
	return p, nil
}

// dpopGuard checks the DPoP proofs of one handler's requests.
type dpopGuard struct {
	policy    dpop.Policy
	verify    func(proof string, c proofs.Check) (proofs.Proof, error)
	algs      []jose.SignatureAlgorithm
	algsParam string          // the challenges' algs="…", made once
	replays   *engine.Replays // where each proof's jti is spent
	sealer    *engine.Sealer  // the nonces' key
	now       func() time.Time
}

func newDPoPGuard(d *dpopConfig, sealer *engine.Sealer) *dpopGuard {
	g := &dpopGuard{policy: d.policy, verify: d.verify, replays: sealer.Replays("dpop", 0), sealer: sealer, now: time.Now}
	g.algsParam = `algs="` + strings.Join(d.policy.Algs, " ") + `"`
	for _, a := range d.policy.Algs {
		g.algs = append(g.algs, jose.SignatureAlgorithm(a))
	}
	return g
}

// attempt is what protect learnt of one request's credentials: the
// verifier reads the proof from it, the challenge what went wrong.
type attempt struct {
	guard  *dpopGuard    // nil: the handler takes no DPoP
	scheme string        // "bearer", "dpop", "other" or "" (see credentials)
	proof  *proofs.Proof // the verified proof of a DPoP request
	fault  *proofs.Error // the DPoP refusal, for the challenge's error code
	// unchecked is set when the jti could not be spent: the store is
	// down, and the answer is 503, not a refusal of the client.
	unchecked bool
	// busy is set when the caller holds its share of the jtis kept in
	// memory: the answer is 429, and the caller alone waits.
	busy bool
}

type attemptKey struct{}

func attemptOf(ctx context.Context) *attempt {
	at, _ := ctx.Value(attemptKey{}).(*attempt)
	return at
}

// credentials returns the request's scheme, "bearer", "dpop", "other"
// or "" (none), and its token, read as the go-sdk's check reads them
// (fields split on any white space, the token "" unless there are two):
// a scheme read otherwise here than there would let a request pass as
// one and be checked as the other.
func credentials(authorization string) (scheme, token string) {
	first, rest := nextField(authorization)
	second, rest := nextField(rest)
	third, _ := nextField(rest)
	switch {
	case first == "":
		return "", ""
	case strings.EqualFold(first, "bearer"):
		scheme = "bearer"
	case strings.EqualFold(first, "dpop"):
		scheme = "dpop"
	default:
		scheme = "other"
	}
	if third == "" {
		token = second
	}
	return scheme, token
}

// nextField is strings.Fields one field at a time, without allocating:
// every request reads its header.
func nextField(s string) (field, rest string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// check verifies the proof of a request with the DPoP scheme, for the
// resource at url.
func (g *dpopGuard) check(r *http.Request, url, token string) (proofs.Proof, *proofs.Error) {
	values := r.Header.Values("DPoP")
	if len(values) != 1 {
		return proofs.Proof{}, &proofs.Error{Code: "invalid_dpop_proof", Reason: fmt.Sprintf("%d DPoP headers; a request carries one", len(values))}
	}
	c := proofs.Check{Method: r.Method, URL: url, AccessToken: token, Now: g.now(), Window: g.policy.Window, Algs: g.algs}
	if g.policy.Nonces {
		c.Nonce = g.acceptsNonce
	}
	p, err := g.verify(values[0], c)
	var e *proofs.Error
	if errors.As(err, &e) {
		return p, e
	}
	return p, nil
}

// spend spends the proof's jti, once for every replica sharing the
// store: the last check, so that only an authenticated request writes.
// Keys are per proof key, so that no client can spend another's jti;
// in memory, the token's subject holds a share of the set at most.
func (g *dpopGuard) spend(ctx context.Context, p proofs.Proof, subject string) error {
	return g.replays.Spend(ctx, p.JKT+"\x00"+p.JTI, cmp.Or(subject, p.JKT), p.IssuedAt, p.IssuedAt.Add(g.policy.Window+time.Second), g.now())
}

// challenge is a DPoP challenge (RFC 9449 §7.1): the error, if any, the
// algorithms taken, then params.
func (g *dpopGuard) challenge(errParam, params string) string {
	return challenge("DPoP", errParam, g.algsParam, params)
}

// Nonces are stateless, so that any replica sharing the request-state
// keys accepts the one another issued: the lifetime's epoch and a MAC of
// it under those keys. One is issued for a lifetime and accepted for the
// next one too.

func (g *dpopGuard) epoch(t time.Time) uint64 {
	return uint64(t.UnixNano() / int64(g.policy.NonceLifetime))
}

func (g *dpopGuard) nonceOf(epoch uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], epoch)
	return base64.RawURLEncoding.EncodeToString(append(b[:], g.sealer.Tag(nonceData(epoch))...))
}

func nonceData(epoch uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("vurb dpop nonce\x00"), epoch)
}

// nonce is the nonce to give clients now.
func (g *dpopGuard) nonce() string { return g.nonceOf(g.epoch(g.now())) }

func (g *dpopGuard) acceptsNonce(n string) bool {
	b, err := base64.RawURLEncoding.DecodeString(n)
	if err != nil || len(b) != 8+engine.TagBytes {
		return false
	}
	epoch, now := binary.BigEndian.Uint64(b[:8]), g.epoch(g.now())
	return (epoch == now || epoch+1 == now) && g.sealer.Verify(nonceData(epoch), b[8:])
}

// boundToken reads the thumbprint a token is bound to (its cnf.jkt,
// RFC 9449 §6) from the claims a verifier kept, as JSON decodes them or
// as a verifier typed them.
// Any cnf binds: one vurb cannot read, or one naming no jkt (a token
// bound to a TLS client certificate, RFC 8705), is a binding to no key
// a proof could show, and such a token is refused both as Bearer and
// with a proof.
func boundToken(extra map[string]any) (jkt string, bound bool) {
	claim, present := extra["cnf"]
	switch cnf := claim.(type) {
	case nil:
		return "", present
	case map[string]any:
		jkt, _ = cnf["jkt"].(string)
	case map[string]string:
		jkt = cnf["jkt"]
	}
	return jkt, true
}

// withProofs wraps verify with what DPoP asks once the token is known:
// a proof's key must be the one the token is bound to, and its jti is
// spent; a bound token without a proof is refused (RFC 9449 §7.2).
func withProofs(verify auth.TokenVerifier) auth.TokenVerifier {
	return func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		info, err := verify(ctx, token, r)
		at := attemptOf(r.Context())
		if err != nil || info == nil || at == nil || at.guard == nil {
			return info, err
		}
		jkt, bound := boundToken(info.Extra)
		if at.proof == nil {
			if bound {
				at.fault = &proofs.Error{Code: "invalid_token", Reason: "a DPoP-bound token presented as a bearer token"}
				return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, at.fault.Reason)
			}
			return info, nil
		}
		if err := proofs.Bound(*at.proof, jkt); err != nil {
			at.fault = err.(*proofs.Error)
			return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, at.fault.Reason)
		}
		switch err := at.guard.spend(ctx, *at.proof, info.UserID); {
		case errors.Is(err, engine.ErrReplayUnchecked):
			at.unchecked = true
			return nil, fmt.Errorf("%w: the proof's jti %v", auth.ErrInvalidToken, err)
		case errors.Is(err, engine.ErrReplayShare):
			at.busy = true
			return nil, fmt.Errorf("%w: the proof is %v", auth.ErrInvalidToken, err)
		case err != nil:
			at.fault = &proofs.Error{Code: "invalid_dpop_proof", Reason: "the proof's jti was " + err.Error()}
			return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, at.fault.Reason)
		}
		return info, nil
	}
}
