package engine

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"time"
)

// A multi-round-trip request carries the server's state to the client and
// back (requestState). The client must not be able to forge or replay it
// elsewhere, so a Sealer signs it with HMAC-SHA256 under a key every
// replica shares, binds it to the request it belongs to (a tool, prompt or
// resource), and dates it. The text is
//
//	v1.<base64url(issued unix seconds, 8 bytes big-endian | data)>.<base64url(mac)>
//
// where the MAC covers the version, the binding and the payload.

// Sealer seals and opens request state. Its zero value is not usable; see
// NewSealer.
type Sealer struct {
	keys     [][]byte // keys[0] seals; every key opens (rotation)
	maxAge   time.Duration
	maxBytes int
}

// The refusals of Open, for the error a client reads.
var (
	ErrStateForged   = errors.New("the requestState fails its integrity check (it was altered, or sealed for another request or by another key)")
	ErrStateExpired  = errors.New("the requestState has expired")
	ErrStateTooLarge = errors.New("the requestState is too large")
)

// Defaults of a Sealer.
const (
	DefaultStateMaxAge   = 10 * time.Minute
	DefaultStateMaxBytes = 64 << 10
)

// NewSealer returns a sealer with keys (the first seals, all open), or
// with a random key of its own when keys is empty: enough for one process,
// not for replicas behind a load balancer.
func NewSealer(keys [][]byte, maxAge time.Duration, maxBytes int) *Sealer {
	if len(keys) == 0 {
		k := make([]byte, 32)
		if _, err := rand.Read(k); err != nil {
			panic("vurb: no randomness for the request-state key: " + err.Error())
		}
		keys = [][]byte{k}
	}
	if maxAge <= 0 {
		maxAge = DefaultStateMaxAge
	}
	if maxBytes <= 0 {
		maxBytes = DefaultStateMaxBytes
	}
	return &Sealer{keys: keys, maxAge: maxAge, maxBytes: maxBytes}
}

const stateVersion = "v1"

// Seal returns the state text of data for the request bind, issued now.
func (s *Sealer) Seal(bind string, data []byte, now time.Time) string {
	payload := make([]byte, 8+len(data))
	binary.BigEndian.PutUint64(payload, uint64(now.Unix()))
	copy(payload[8:], data)
	body := base64.RawURLEncoding.EncodeToString(payload)
	mac := s.mac(s.keys[0], bind, body)
	return stateVersion + "." + body + "." + base64.RawURLEncoding.EncodeToString(mac)
}

// Open verifies text for the request bind and returns its data.
func (s *Sealer) Open(bind, text string, now time.Time) ([]byte, error) {
	if len(text) > s.maxBytes*4/3+64 {
		return nil, ErrStateTooLarge
	}
	version, rest, ok := strings.Cut(text, ".")
	body, sig, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || version != stateVersion {
		return nil, ErrStateForged
	}
	mac, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return nil, ErrStateForged
	}
	valid := false
	for _, k := range s.keys {
		if hmac.Equal(mac, s.mac(k, bind, body)) {
			valid = true
			break
		}
	}
	if !valid {
		return nil, ErrStateForged
	}
	payload, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(payload) < 8 {
		return nil, ErrStateForged
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(payload)), 0)
	if now.Sub(issued) > s.maxAge || issued.Sub(now) > time.Minute {
		return nil, ErrStateExpired
	}
	return payload[8:], nil
}

// MaxBytes is the largest data Seal should be given.
func (s *Sealer) MaxBytes() int { return s.maxBytes }

func (s *Sealer) mac(key []byte, bind, body string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(stateVersion))
	h.Write([]byte{0})
	h.Write([]byte(bind))
	h.Write([]byte{0})
	h.Write([]byte(body))
	return h.Sum(nil)
}
