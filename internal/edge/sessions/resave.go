package sessions

import (
	"context"
	"crypto/rand"
	"errors"
	"time"
	"weak"

	"github.com/vurb-go/vurb/store"
)

// A store can lose what it held without a word: a Redis restarted without
// persistence, an outage during which a record's save failed, a record
// evicted under memory pressure. Every other replica then reads a live
// session as ended. So a table that shares a store watches it: a marker
// record of its own, read every ProbeEvery, tells that the store
// lost its data (the marker is gone) or was out of reach (the read
// failed); either way, once the store answers, the table saves again the
// record of every session it holds. The probe is one read in
// ProbeEvery per handler, never on a call's path.

// ProbeEvery is how often a table reads its marker: how long, after
// the store is back, other replicas may not find a session this replica
// holds.
const ProbeEvery = 2 * time.Second

// markerSubject is the subject of a marker record: no verified token
// carries it, so no request can use the marker as a session.
const markerSubject = "\x00vurb: a replica's marker, not a session"

// WatchStore starts the probe of t's store, which ends once t is no
// longer used (the handler dropped).
func (t *Table) WatchStore(every time.Duration) {
	wp := weak.Make(t)
	marker := "vurb-marker-" + rand.Text()
	t.marker = marker
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for lost := true; ; <-tick.C { // the first at once: no marker saved yet
			t := wp.Value()
			if t == nil {
				return
			}
			lost = t.probe(marker, lost)
		}
	}()
}

// Wiped reports whether the store lost the marker this table saved in
// it: restarted empty, or out of reach. A session the store does not
// know may then live on, held by a replica that has not saved it again
// yet, and is answered 503, not 404.
func (t *Table) Wiped(ctx context.Context) bool {
	if !t.markerSaved.Load() {
		return false // too early to tell
	}
	_, err := t.Store.Load(ctx, t.marker)
	return err != nil
}

// probe reads the marker and, when the store lost its data or lost has
// it so (an earlier probe found the store down), saves every record
// this table holds, then the marker; it reports whether that is still
// to be done.
func (t *Table) probe(marker string, lost bool) bool {
	ctx, cancel := context.WithTimeout(context.Background(), ProbeEvery)
	defer cancel()
	_, err := t.Store.Load(ctx, marker)
	t.Health.Found(err)
	switch {
	case errors.Is(err, store.ErrSessionNotFound):
		lost = true
		if t.markerSaved.Load() {
			t.Health.Lost() // it had it: the store lost its data
		}
	case err != nil:
		t.Health.Lost()
		return true // out of reach: once it answers, save everything again
	}
	if !lost {
		return false
	}
	if t.OnLost != nil {
		t.OnLost() // the tasks this replica runs
	}
	for _, rec := range t.held() {
		if err := t.Store.Save(ctx, &rec, t.ttl()); err != nil {
			return true
		}
	}
	if t.Store.Save(ctx, &store.Session{ID: marker, Subject: markerSubject}, t.ttl()) != nil {
		return true
	}
	t.markerSaved.Store(true)
	return false
}

// held returns the records of the sessions this process holds a go-sdk
// session of, initialized ones only.
func (t *Table) held() []store.Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []store.Session
	for _, e := range t.live {
		if e.ss != nil && e.rec.Version != "" {
			out = append(out, e.rec)
		}
	}
	return out
}

// Resave saves again the record of the session id, if this process holds
// it: the store lost it, and another replica asked (bus.Hub.Ask).
func (t *Table) Resave(ctx context.Context, id string) {
	t.mu.Lock()
	e := t.live[id]
	if e == nil || e.ss == nil || e.rec.Version == "" {
		t.mu.Unlock()
		return
	}
	rec := e.rec
	t.mu.Unlock()
	t.save(ctx, e, rec)
}
