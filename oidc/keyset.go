package oidc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// DefaultKeyRefetchInterval is how often, at most, a verifier fetches the
// issuer's keys again when a token's signature verifies with none of the
// keys it holds (WithKeyRefetchInterval changes it). Thirty seconds bounds
// what forged tokens can make the server do to its issuer at two fetches a
// minute, whatever their number, while a key the issuer starts signing
// with unannounced is accepted within half a minute. Issuers usually
// publish a new key before they sign with it, so that wait is rarely seen.
const DefaultKeyRefetchInterval = 30 * time.Second

const (
	// fetchTimeout bounds one fetch of the keys: a fetch that hangs would
	// otherwise hold back every later one.
	fetchTimeout = 30 * time.Second
	// maxKeySetBytes bounds the key set read from the issuer; real ones
	// are a few kilobytes (Google's 2 KB, Entra ID's 10 KB).
	maxKeySetBytes = 1 << 20
)

// signatureAlgorithms are those go-jose may parse a token with here: the
// verifier has already refused a token signed with an algorithm it does
// not accept, as go-oidc's own key set assumes.
var signatureAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512,
	jose.ES256, jose.ES384, jose.ES512,
	jose.PS256, jose.PS384, jose.PS512,
	jose.EdDSA,
}

// keySet is the issuer's published keys, as the gooidc.KeySet the verifier
// checks signatures with (go-jose's, not hand-written). It replaces
// go-oidc's RemoteKeySet, which fetches the jwks_uri again on every
// signature that fails to verify: anyone could make the server fetch its
// issuer's keys at will (300 forged tokens, 300 fetches in 0.22 s, a
// correct kid with a bad signature included). keySet fetches them when
// first needed and then again only when a token verifies with none of the
// keys held (a rotated key, or a forgery: the two look alike until the
// keys are fetched), at most once per interval; concurrent callers that
// need a fetch share one.
type keySet struct {
	url      string
	client   *http.Client
	interval time.Duration

	mu       sync.Mutex
	keys     []jose.JSONWebKey
	gen      uint64    // counts the fetches that succeeded, so a caller sees if keys changed since it read them
	started  time.Time // when the last fetch started; zero before the first
	lastErr  error     // the last fetch's error, nil if it succeeded
	inflight *fetch    // the fetch under way, nil if none
}

// fetch is one fetch of the keys, which every caller that needs it waits for.
type fetch struct {
	done chan struct{}
	keys []jose.JSONWebKey
	err  error
}

func newKeySet(url string, client *http.Client, interval time.Duration) *keySet {
	return &keySet{url: url, client: client, interval: interval}
}

// VerifySignature returns the token's payload if its signature verifies
// with one of the issuer's keys: one with the key id (kid) the token
// names, or any if it names none. It fetches the keys if none it holds
// verifies and the last fetch is at least an interval old.
func (k *keySet) VerifySignature(ctx context.Context, token string) ([]byte, error) {
	jws, err := jose.ParseSigned(token, signatureAlgorithms)
	if err != nil {
		return nil, fmt.Errorf("malformed jwt: %v", err)
	}
	if len(jws.Signatures) != 1 {
		return nil, fmt.Errorf("the token carries %d signatures, not one", len(jws.Signatures))
	}
	kid := jws.Signatures[0].Header.KeyID
	keys, gen := k.cached()
	if payload, ok := verifyWith(jws, kid, keys); ok {
		return payload, nil
	}
	keys, err = k.refresh(ctx, gen, kid)
	if err != nil {
		return nil, err
	}
	if payload, ok := verifyWith(jws, kid, keys); ok {
		return payload, nil
	}
	return nil, fmt.Errorf("none of the issuer's keys, just fetched, verifies the token (kid %.64q)", kid)
}

// verifyWith returns the payload of jws if one of keys verifies it.
func verifyWith(jws *jose.JSONWebSignature, kid string, keys []jose.JSONWebKey) ([]byte, bool) {
	for i := range keys {
		if kid != "" && keys[i].KeyID != kid {
			continue
		}
		if payload, err := jws.Verify(&keys[i]); err == nil {
			return payload, true
		}
	}
	return nil, false
}

// cached returns the keys held and their generation.
func (k *keySet) cached() ([]jose.JSONWebKey, uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.keys, k.gen
}

// refresh returns keys newer than generation gen: those another caller
// fetched since, those of the fetch under way, or those of a fetch it
// starts if the last one started at least an interval ago. Otherwise it
// refuses, saying when the keys can be fetched again. The fetch runs
// apart from ctx, so a caller that gives up does not fail the others.
func (k *keySet) refresh(ctx context.Context, gen uint64, kid string) ([]jose.JSONWebKey, error) {
	k.mu.Lock()
	if k.gen != gen {
		keys := k.keys
		k.mu.Unlock()
		return keys, nil
	}
	f := k.inflight
	if f == nil {
		if since := time.Since(k.started); !k.started.IsZero() && since < k.interval {
			err := k.limited(kid, since)
			k.mu.Unlock()
			return nil, err
		}
		f = &fetch{done: make(chan struct{})}
		k.inflight = f
		k.started = time.Now()
		go k.run(f)
	}
	k.mu.Unlock()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-f.done:
		return f.keys, f.err
	}
}

// limited is the refusal of a token no held key verifies, while the keys
// may not be fetched again; it is for the server's log (the client's
// answer is a plain 401). since is the age of the last fetch.
func (k *keySet) limited(kid string, since time.Duration) error {
	wait := (k.interval - since).Round(time.Millisecond)
	if k.lastErr != nil {
		return fmt.Errorf("no key verifies the token (kid %.64q): fetching the issuer's keys failed %v ago (%v), and they are fetched at most once every %v, next in %v",
			kid, since.Round(time.Millisecond), k.lastErr, k.interval, wait)
	}
	return fmt.Errorf("none of the issuer's keys, fetched %v ago, verifies the token (kid %.64q); they are fetched at most once every %v, next in %v",
		since.Round(time.Millisecond), kid, k.interval, wait)
}

// run fetches the keys for f, keeps them if the fetch succeeded, and
// releases f's waiters.
func (k *keySet) run(f *fetch) {
	ctx, cancel := context.WithTimeout(context.Background(), fetchTimeout)
	defer cancel()
	keys, err := fetchKeys(ctx, k.client, k.url)
	k.mu.Lock()
	if err == nil {
		k.keys = keys
		k.gen++
	}
	k.lastErr = err
	k.inflight = nil
	f.keys, f.err = keys, err
	k.mu.Unlock()
	close(f.done)
}

// fetchKeys fetches and parses the key set published at url.
func fetchKeys(ctx context.Context, client *http.Client, url string) ([]jose.JSONWebKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("fetching the issuer's keys: %v", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Cache-Control", "no-cache")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching the issuer's keys: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxKeySetBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetching the issuer's keys from %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching the issuer's keys from %s: %s", url, resp.Status)
	}
	if len(body) > maxKeySetBytes {
		return nil, fmt.Errorf("the issuer's key set at %s is larger than %d bytes", url, maxKeySetBytes)
	}
	keys, err := parseKeySet(body)
	if err != nil {
		return nil, fmt.Errorf("the issuer's key set at %s: %v", url, err)
	}
	return keys, nil
}

// parseKeySet reads a JSON Web Key Set (RFC 7517 §5), leaving out, as the
// RFC asks and go-oidc does, the keys it cannot use: those for another
// algorithm or of a type go-jose does not know (secp256k1, Ed448 keys some
// issuers publish), and encryption keys.
func parseKeySet(body []byte) ([]jose.JSONWebKey, error) {
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, err
	}
	var keys []jose.JSONWebKey
	for _, raw := range set.Keys {
		var meta struct {
			Alg string `json:"alg"`
			Use string `json:"use"`
		}
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, err
		}
		if (meta.Alg != "" && !supportedAlgorithm(meta.Alg)) || meta.Use == "enc" {
			continue
		}
		var key jose.JSONWebKey
		if err := json.Unmarshal(raw, &key); err != nil {
			if errors.Is(err, jose.ErrUnsupportedKeyType) {
				continue
			}
			return nil, err
		}
		keys = append(keys, key)
	}
	return keys, nil
}

// supportedAlgorithm reports whether alg is one a token may be verified with.
func supportedAlgorithm(alg string) bool {
	for _, a := range signatureAlgorithms {
		if string(a) == alg {
			return true
		}
	}
	return false
}
