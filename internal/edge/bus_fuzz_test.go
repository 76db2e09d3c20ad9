package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
)

// testBusSealer is a bus sealer under key, its clock set to now.
func testBusSealer(key string, now time.Time) *busSealer {
	s := newBusSealer(engine.NewSealer([][]byte{[]byte(key)}, 0, 0).Box(busPurpose))
	s.now = func() time.Time { return now }
	return s
}

const testBusKey = "0123456789abcdef0123456789abcdef"

// What arrives on the bus is anybody's who can publish to the channel:
// opening it and checking what it asks must never panic, and must accept
// nothing that this app's key did not seal, whatever the bytes.
func FuzzBusMessage(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	// The seeds are sealed under another app's key: shaped like the
	// real thing, they must open no more than any other bytes.
	sealer := testBusSealer("ffffffffffffffffffffffffffffffff", now)
	for _, m := range []busMessage{
		{Kind: busSession, Session: "s", Body: json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)},
		{Kind: busSession, Session: "s", Body: json.RawMessage(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wipe"}}`)},
		{Kind: busEnded, Session: "s"},
		{Kind: busAck, Nonce: "n"},
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
		s := testBusSealer(testBusKey, now)
		if sealIt { // data as a replica's message body: what check must bound
			var m busMessage
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
			if got.check() == nil && got.Kind == busSession && !replayable(got.Body) {
				t.Fatalf("check let through a session message no replica relays: %s", got.Body)
			}
			if _, err := s.open(sealed); !errors.Is(err, errBusPlayed) {
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
	m := busMessage{Kind: busEnded, Session: "alice-session"}
	sealed, err := testBusSealer(testBusKey, now).seal(&m)
	is.NoErr(err)
	for name, c := range map[string]struct {
		key  string
		at   time.Time
		edit func([]byte) []byte
		want error
	}{
		"as sealed":       {testBusKey, now, nil, nil},
		"another key":     {"ffffffffffffffffffffffffffffffff", now, nil, errBusForged},
		"a byte flipped":  {testBusKey, now, func(b []byte) []byte { b[len(b)-1] ^= 1; return b }, errBusForged},
		"unsealed":        {testBusKey, now, func([]byte) []byte { d, _ := json.Marshal(m); return d }, errBusForged},
		"a minute late":   {testBusKey, now.Add(time.Minute), nil, errBusStale},
		"from the future": {testBusKey, now.Add(-time.Minute), nil, errBusStale},
	} {
		data := bytes.Clone(sealed)
		if c.edit != nil {
			data = c.edit(data)
		}
		got, err := testBusSealer(c.key, c.at).open(data)
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
		m := busMessage{Kind: busSession, Session: "s", Body: json.RawMessage(body)}
		if got := m.check() == nil; got != want {
			t.Errorf("%s: allowed %v, want %v", body, got, want)
		}
	}
}

// A record read back from a shared store is anybody's who can write to
// it: a replica reads it without panicking, and serves no other session
// from it than the one it asked for.
func FuzzStoredSessionRecord(f *testing.F) {
	f.Add([]byte(`{"id":"s","subject":"alice","protocolVersion":"2025-11-25","initialized":true,"subscriptions":["a"]}`), "s")
	f.Add([]byte(`{"id":"other"}`), "s")
	f.Add([]byte(`{"id":"s","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"x"}}`), "s")
	f.Fuzz(func(t *testing.T, data []byte, id string) {
		var rec store.Session
		if json.Unmarshal(data, &rec) != nil {
			return
		}
		table := newSessionTable(time.Minute, slog.New(slog.DiscardHandler))
		table.store = recordStore{rec: &rec}
		got, e, err := table.load(context.Background(), id)
		if rec.ID != id {
			if err == nil || e != nil {
				t.Fatalf("the record of %q served a request of %q", rec.ID, id)
			}
			return
		}
		if err != nil || e == nil || got.ID != id {
			t.Fatalf("the record of %q not served: %v", id, err)
		}
		_ = sessionState(&got)
		_ = mayUseSession(&got, nil)
		_ = replayRequest("resources/subscribe", got.Subscriptions)
	})
}

// recordStore is a store.Sessions that holds one record, as read back.
type recordStore struct{ rec *store.Session }

func (s recordStore) Save(context.Context, *store.Session, time.Duration) error { return nil }
func (s recordStore) Load(context.Context, string) (*store.Session, error)      { return s.rec, nil }
func (s recordStore) Delete(context.Context, string) error                      { return nil }
func (s recordStore) Admit(context.Context, *store.Session, int, time.Duration) ([]string, error) {
	return nil, nil
}
