package engine

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// A multi-round-trip request carries the server's state to the client and
// back (requestState). The client must neither read it (a handler may keep
// internal ids or approvals there), nor alter it, nor use it for another
// caller, another request or other arguments, nor play it twice. So a
// Sealer encrypts it with AES-256-GCM (the standard library's AEAD) under
// a key derived from one every replica shares, authenticates with it the
// binding of the round (the request, the caller's identity and a digest
// of the arguments: see Binding), dates it, and spends it when it opens.
// The text is
//
//	v2.<base64url(nonce | AES-GCM(issued unix seconds, 8 bytes big-endian | data))>
//
// with "v2", NUL and the binding as the additional data.

// Sealer seals and opens request state. Its zero value is not usable; see
// NewSealer.
type Sealer struct {
	box      Box      // the request state's keys
	tagKeys  [][]byte // tagKeys[0] tags; every one verifies (see Tag)
	maxAge   time.Duration
	maxBytes int
	spent    spentStates
	// ledger, when set, spends each state once over all the replicas
	// that share it: the local spentStates alone would let a state be
	// played once on each (see SpendShared).
	ledger       Ledger
	ledgerLogger *slog.Logger // where a ledger's failure is told: never to the client
	keys         [][]byte     // the secrets the keys above derive from (AEADs)

	replaysMu sync.Mutex
	replays   map[string]*Replays // by kind (Replays)
}

// A Ledger records keys that may be used once over all replicas.
type Ledger interface {
	// Spend records key until ttl from now and reports whether it was
	// new: false when it was spent already.
	Spend(ctx context.Context, key string, ttl time.Duration) (bool, error)
}

// ErrStateUnchecked: the shared ledger could not say whether a state was
// spent, and an unchecked state is never honoured.
var ErrStateUnchecked = errors.New("the requestState could not be checked against the other replicas' (their shared store is unavailable); retry shortly with the same requestState")

// SpendShared makes the sealer spend each state in ledger too, once for
// every replica sharing it. A call that carries no state costs no round
// trip.
func (s *Sealer) SpendShared(ledger Ledger, logger *slog.Logger) {
	s.ledger, s.ledgerLogger = ledger, logger
}

// Box returns a Box of AES-256-GCM ciphers under keys derived with HKDF
// from the sealer's secrets for purpose: one secret given by the user
// serves several uses, each with a key of its own that opens nothing of
// another's.
func (s *Sealer) Box(purpose string) Box {
	out := make(Box, len(s.keys))
	for i, k := range s.keys {
		out[i] = deriveAEAD(k, purpose)
	}
	return out
}

// The refusals of Open, for the error a client reads.
var (
	ErrStateForged   = errors.New("the requestState fails its integrity check (it was altered, or sealed for another caller, request or arguments, or by another key)")
	ErrStateExpired  = errors.New("the requestState has expired")
	ErrStateTooLarge = errors.New("the requestState is too large")
	ErrStateSpent    = errors.New("the requestState was already used: each round's state is good for one request")
)

// Defaults of a Sealer.
const (
	DefaultStateMaxAge   = 10 * time.Minute
	DefaultStateMaxBytes = 64 << 10
	// DefaultSpentStates bounds how many spent states a Sealer remembers
	// (about 50 bytes each). Past it the oldest are forgotten, and every
	// state issued no later than a forgotten one is refused as expired:
	// the bound never lets a state be played twice.
	DefaultSpentStates = 1 << 18
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
	s := &Sealer{maxAge: maxAge, maxBytes: maxBytes, spent: newSpent(DefaultSpentStates, 0), keys: keys}
	for _, k := range keys {
		s.box = append(s.box, deriveAEAD(k, "vurb request state v2"))
		tk, err := hkdf.Key(sha256.New, k, nil, "vurb tag v1", 32)
		if err != nil {
			panic("vurb: deriving the tag key: " + err.Error())
		}
		s.tagKeys = append(s.tagKeys, tk)
	}
	return s
}

// TagBytes is the length of a Tag.
const TagBytes = 10

// Tag returns a MAC of data under the sealer's first key, TagBytes long:
// what the server issued (an MCP task id) can then be told from what a client
// made up, by any replica sharing the keys, and after a restart.
func (s *Sealer) Tag(data []byte) []byte {
	return tag(s.tagKeys[0], data)
}

// Verify reports whether t is the Tag of data under one of the keys.
func (s *Sealer) Verify(data, t []byte) bool {
	for _, k := range s.tagKeys {
		if hmac.Equal(tag(k, data), t) {
			return true
		}
	}
	return false
}

func tag(key, data []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(data)
	return h.Sum(nil)[:TagBytes]
}

// deriveAEAD is AES-256-GCM under a key derived from secret with HKDF for
// purpose, so a key given for request state serves nothing else even if
// reused.
func deriveAEAD(secret []byte, purpose string) cipher.AEAD {
	key, err := hkdf.Key(sha256.New, secret, nil, purpose, 32)
	if err != nil {
		panic("vurb: deriving a key: " + err.Error())
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		panic("vurb: the request-state cipher: " + err.Error())
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic("vurb: the request-state cipher: " + err.Error())
	}
	return aead
}

const stateVersion = "v2"

// Seal returns the state text of data for the round bind, issued now.
func (s *Sealer) Seal(bind string, data []byte, now time.Time) string {
	plain := make([]byte, 8+len(data))
	binary.BigEndian.PutUint64(plain, uint64(now.Unix()))
	copy(plain[8:], data)
	return stateVersion + "." + base64.RawURLEncoding.EncodeToString(s.box.Seal(nil, plain, additional(bind)))
}

// Open decrypts text for the round bind, spends it and returns its data.
func (s *Sealer) Open(ctx context.Context, bind, text string, now time.Time) ([]byte, error) {
	if len(text) > s.maxBytes*4/3+128 {
		return nil, ErrStateTooLarge
	}
	version, body, ok := strings.Cut(text, ".")
	if !ok || version != stateVersion {
		return nil, ErrStateForged
	}
	sealed, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return nil, ErrStateForged
	}
	plain, nonce, opened := s.box.Open(sealed, additional(bind))
	if !opened || len(plain) < 8 {
		return nil, ErrStateForged
	}
	issued := int64(binary.BigEndian.Uint64(plain))
	if now.Sub(time.Unix(issued, 0)) > s.maxAge || time.Unix(issued, 0).Sub(now) > time.Minute {
		return nil, ErrStateExpired
	}
	if s.ledger != nil { // first: a store that fails spends nothing, so the client may retry
		fresh, err := s.ledger.Spend(ctx, "state:"+base64.RawURLEncoding.EncodeToString(nonce), s.maxAge+time.Minute)
		if err != nil {
			s.ledgerLogger.Warn("vurb: spending a request state in the shared ledger failed; refused it", "err", err)
			return nil, ErrStateUnchecked
		}
		if !fresh {
			return nil, ErrStateSpent
		}
	}
	if err := s.spent.spend(string(nonce), "", issued, issued+int64((s.maxAge+time.Minute)/time.Second), now.Unix()); err != nil {
		return nil, err
	}
	return plain[8:], nil
}

// MaxBytes is the largest data Seal should be given.
func (s *Sealer) MaxBytes() int { return s.maxBytes }

func additional(bind string) []byte {
	return append([]byte(stateVersion+"\x00"), bind...)
}
