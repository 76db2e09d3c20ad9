package bus

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/internal/engine"
)

// testSealer is a bus sealer under key, its clock set to now.
func testSealer(key string, now time.Time) *sealer {
	s := newSealer(engine.NewSealer([][]byte{[]byte(key)}, 0, 0).Box(purpose))
	s.now = func() time.Time { return now }
	return s
}

const testKey = "0123456789abcdef0123456789abcdef"

// What arrives on the bus is anybody's who can publish to the channel:
// opening it and checking what it asks must never panic, and must accept
// nothing that this app's key did not seal, whatever the bytes.
func FuzzBusMessage(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	// The seeds are sealed under another app's key: shaped like the
	// real thing, they must open no more than any other bytes.
	sealer := testSealer("ffffffffffffffffffffffffffffffff", now)
	for _, m := range []message{
		{Kind: kindSession, Session: "s", Body: json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)},
		{Kind: kindSession, Session: "s", Body: json.RawMessage(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wipe"}}`)},
		{Kind: kindEnded, Session: "s"},
		{Kind: kindAck, Nonce: "n"},
	} {
		sealed, err := sealer.seal(&m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(sealed, false)
		plain, _ := json.Marshal(m)
		f.Add(plain, true)
	}
	f.Add([]byte("vb1"), false)
	f.Fuzz(func(t *testing.T, data []byte, sealIt bool) {
		s := testSealer(testKey, now)
		if sealIt { // data as a replica's message body: what check must bound
			var m message
			if json.Unmarshal(data, &m) != nil {
				return
			}
			sealed, err := s.seal(&m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.open(sealed)
			if err != nil {
				t.Fatalf("a message this replica sealed does not open: %v", err)
			}
			if got.check() == nil && got.Kind == kindSession && !replayable(got.Body) {
				t.Fatalf("check let through a session message no replica relays: %s", got.Body)
			}
			if _, err := s.open(sealed); !errors.Is(err, errPlayed) {
				t.Fatalf("a message opened twice: %v", err)
			}
			return
		}
		if _, err := s.open(data); err == nil {
			t.Fatalf("bytes no replica sealed were accepted: %q", data)
		}
	})
}

// A sealed message opens once, within the window of its date, and not at
// all under another key or with one byte changed.
func TestBusSealOpensOnceUnderItsKeyWithinItsWindow(t *testing.T) {
	is := is.New(t)
	now := time.Unix(1_800_000_000, 0)
	m := message{Kind: kindEnded, Session: "alice-session"}
	sealed, err := testSealer(testKey, now).seal(&m)
	is.NoErr(err)
	for name, c := range map[string]struct {
		key  string
		at   time.Time
		edit func([]byte) []byte
		want error
	}{
		"as sealed":       {testKey, now, nil, nil},
		"another key":     {"ffffffffffffffffffffffffffffffff", now, nil, errForged},
		"a byte flipped":  {testKey, now, func(b []byte) []byte { b[len(b)-1] ^= 1; return b }, errForged},
		"unsealed":        {testKey, now, func([]byte) []byte { d, _ := json.Marshal(m); return d }, errForged},
		"a minute late":   {testKey, now.Add(time.Minute), nil, errStale},
		"from the future": {testKey, now.Add(-time.Minute), nil, errStale},
	} {
		data := bytes.Clone(sealed)
		if c.edit != nil {
			data = c.edit(data)
		}
		got, err := testSealer(c.key, c.at).open(data)
		if !errors.Is(err, c.want) {
			t.Fatalf("%s: %v, want %v", name, err, c.want)
		}
		if c.want == nil {
			is.Equal(got.Session, m.Session)
		}
	}
}

// A replica's message may ask only what replicas relay: never a call.
func TestBusCheckRefusesWhatNoReplicaRelays(t *testing.T) {
	for body, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":3,"result":{}}`:                                                true,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`:       true,
		`{"jsonrpc":"2.0","id":"vurb-replay","method":"logging/setLevel","params":{}}`:        true,
		`{"jsonrpc":"2.0","id":"vurb-replay","method":"tools/call","params":{"name":"wipe"}}`: false,
		`{"jsonrpc":"2.0","id":7,"method":"resources/subscribe","params":{"uri":"x"}}`:        false,
		`{"jsonrpc":"2.0","id":3}`: false,
		`not json`:                 false,
	} {
		m := message{Kind: kindSession, Session: "s", Body: json.RawMessage(body)}
		if got := m.check() == nil; got != want {
			t.Errorf("%s: allowed %v, want %v", body, got, want)
		}
	}
}
