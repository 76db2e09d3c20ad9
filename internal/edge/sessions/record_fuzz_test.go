package sessions

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/vurb-go/vurb/store"
)

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
		table := NewTable(time.Minute, slog.New(slog.DiscardHandler))
		table.Store = recordStore{rec: &rec}
		got, e, err := table.Load(context.Background(), id)
		if rec.ID != id {
			if err == nil || e != nil {
				t.Fatalf("the record of %q served a request of %q", rec.ID, id)
			}
			return
		}
		if err != nil || e == nil || got.ID != id {
			t.Fatalf("the record of %q not served: %v", id, err)
		}
		_ = State(&got)
		_ = MayUse(&got, nil)
		_ = ReplayRequest("resources/subscribe", got.Subscriptions)
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
