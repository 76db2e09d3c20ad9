package engine

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
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
	aeads    []cipher.AEAD // aeads[0] seals; every one opens (rotation)
	tagKeys  [][]byte      // tagKeys[0] tags; every one verifies (see Tag)
	maxAge   time.Duration
	maxBytes int
	spent    spentStates
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
	s := &Sealer{maxAge: maxAge, maxBytes: maxBytes, spent: spentStates{max: DefaultSpentStates, at: map[string]int64{}}}
	for _, k := range keys {
		s.aeads = append(s.aeads, stateAEAD(k))
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

// stateAEAD is AES-256-GCM under a key derived from secret with HKDF, so a
// key given for request state serves nothing else even if reused.
func stateAEAD(secret []byte) cipher.AEAD {
	key, err := hkdf.Key(sha256.New, secret, nil, "vurb request state v2", 32)
	if err != nil {
		panic("vurb: deriving the request-state key: " + err.Error())
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
	aead := s.aeads[0]
	plain := make([]byte, 8+len(data))
	binary.BigEndian.PutUint64(plain, uint64(now.Unix()))
	copy(plain[8:], data)
	out := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := rand.Read(out); err != nil {
		panic("vurb: no randomness for a request-state nonce: " + err.Error())
	}
	out = aead.Seal(out, out, plain, additional(bind))
	return stateVersion + "." + base64.RawURLEncoding.EncodeToString(out)
}

// Open decrypts text for the round bind, spends it and returns its data.
func (s *Sealer) Open(bind, text string, now time.Time) ([]byte, error) {
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
	var plain []byte
	opened, ad := false, additional(bind)
	for _, aead := range s.aeads {
		n := aead.NonceSize()
		if len(sealed) < n+aead.Overhead() {
			return nil, ErrStateForged
		}
		if plain, err = aead.Open(nil, sealed[:n], sealed[n:], ad); err == nil {
			opened = true
			break
		}
	}
	if !opened || len(plain) < 8 {
		return nil, ErrStateForged
	}
	issued := int64(binary.BigEndian.Uint64(plain))
	if now.Sub(time.Unix(issued, 0)) > s.maxAge || time.Unix(issued, 0).Sub(now) > time.Minute {
		return nil, ErrStateExpired
	}
	if err := s.spent.spend(string(sealed[:s.aeads[0].NonceSize()]), issued, issued+int64((s.maxAge+time.Minute)/time.Second), now.Unix()); err != nil {
		return nil, err
	}
	return plain[8:], nil
}

// MaxBytes is the largest data Seal should be given.
func (s *Sealer) MaxBytes() int { return s.maxBytes }

func additional(bind string) []byte {
	return append([]byte(stateVersion+"\x00"), bind...)
}

// spentStates remembers the states opened until they expire, by nonce.
type spentStates struct {
	mu    sync.Mutex
	max   int
	at    map[string]int64 // nonce → issued (unix seconds)
	order []spentState     // order[head:] in the order spent, for forgetting the oldest
	head  int
	// floor is the latest issue time of a state forgotten before it
	// expired: a state issued no later is refused, since it may be one.
	floor int64
}

type spentState struct {
	nonce   string
	expires int64
}

// spend marks the state nonce (issued at issued, useless after expires)
// spent at now, or refuses it when it already was.
func (s *spentStates) spend(nonce string, issued, expires, now int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if issued <= s.floor {
		return ErrStateExpired
	}
	if _, ok := s.at[nonce]; ok {
		return ErrStateSpent
	}
	for s.head < len(s.order) && s.order[s.head].expires < now { // expired: can no longer open
		delete(s.at, s.order[s.head].nonce)
		s.head++
	}
	for len(s.order)-s.head >= s.max {
		old := s.order[s.head]
		s.floor = max(s.floor, s.at[old.nonce])
		delete(s.at, old.nonce)
		s.head++
	}
	if s.head > len(s.order)/2 { // reuse the space of what was forgotten
		s.order = append(s.order[:0], s.order[s.head:]...)
		s.head = 0
	}
	s.at[nonce] = issued
	s.order = append(s.order, spentState{nonce: nonce, expires: expires})
	return nil
}
