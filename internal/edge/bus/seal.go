package bus

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/vurb-go/vurb/internal/engine"
)

// Every bus message is sealed (AES-256-GCM, under a key derived from the
// app's request-state keys for the bus alone) and dated: whoever can
// PUBLISH to the bus's channel without the keys, an attacker holding
// Redis's password or a neighbour on a shared Redis, can make no replica
// act, and a sealed message played again is refused. The text is
//
//	"vb1" | nonce | AES-GCM(sent unix milliseconds, 8 bytes big-endian | JSON message)
//
// with "vurb bus v1" as the additional data.

const (
	sealVersion = "vb1"
	purpose     = "vurb bus v1"
	// maxSkew is how far a message's date may lie from this replica's
	// clock: the publish, Redis and the delivery take milliseconds, and
	// replicas' clocks are kept in step (NTP).
	maxSkew = 30 * time.Second
)

// The reasons a delivered message is dropped.
var (
	errForged = errors.New("not sealed by a replica of this app (another key, another app, or forged)")
	errStale  = errors.New("dated outside the accepted window (played again later, or a clock far off)")
	errPlayed = errors.New("delivered before (played again)")
)

// sealer seals and opens the bus messages of one app.
type sealer struct {
	box engine.Box
	now func() time.Time

	mu   sync.Mutex
	seen map[string]int64 // nonce → unix ms after which its message is stale anyway
	last int64            // the last sweep of seen
}

func newSealer(box engine.Box) *sealer {
	return &sealer{box: box, now: time.Now, seen: map[string]int64{}}
}

// seal returns m sealed for the bus, dated now.
func (s *sealer) seal(m *message) ([]byte, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	plain := make([]byte, 8+len(body))
	binary.BigEndian.PutUint64(plain, uint64(s.now().UnixMilli()))
	copy(plain[8:], body)
	return s.box.Seal([]byte(sealVersion), plain, []byte(purpose)), nil
}

// open returns the message data holds, or why it must be dropped: not
// sealed under the app's keys, dated outside maxSkew, or delivered
// before.
func (s *sealer) open(data []byte) (*message, error) {
	if len(data) < len(sealVersion) || string(data[:len(sealVersion)]) != sealVersion {
		return nil, errForged
	}
	plain, nonce, ok := s.box.Open(data[len(sealVersion):], []byte(purpose))
	if !ok || len(plain) < 8 {
		return nil, errForged
	}
	sent := int64(binary.BigEndian.Uint64(plain))
	now := s.now().UnixMilli()
	skew := maxSkew.Milliseconds()
	if sent < now-skew || sent > now+skew {
		return nil, errStale
	}
	if !s.first(string(nonce), sent+skew, now) {
		return nil, errPlayed
	}
	var m message
	if err := json.Unmarshal(plain[8:], &m); err != nil {
		return nil, errForged // sealed by a replica, yet not a message: another version's
	}
	return &m, nil
}

// first reports whether nonce is new, remembering it until stale (unix
// ms), when its message is refused for its date anyway. The nonces of
// the last minute are all there is to remember.
func (s *sealer) first(nonce string, stale, now int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now-s.last > time.Second.Milliseconds() {
		for k, until := range s.seen {
			if until < now {
				delete(s.seen, k)
			}
		}
		s.last = now
	}
	if _, ok := s.seen[nonce]; ok {
		return false
	}
	s.seen[nonce] = stale
	return true
}
