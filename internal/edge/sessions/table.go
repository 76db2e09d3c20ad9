package sessions

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/bus"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/limit"
	"github.com/vurb-go/vurb/store"
)

// State is the go-sdk's state of a session with rec's facts, to
// connect it anew on another replica.
func State(rec *store.Session) *mcp.ServerSessionState {
	st := &mcp.ServerSessionState{InitializeParams: &mcp.InitializeParams{ProtocolVersion: rec.Version,
		ClientInfo: rec.Client, Capabilities: rec.Capabilities}, NegotiatedProtocolVersion: rec.Negotiated, LogLevel: rec.LogLevel}
	if rec.Initialized {
		st.InitializedParams = &mcp.InitializedParams{}
	}
	return st
}

// Table holds the records of one server's live sessions. A record
// is made when a session is initialized and dropped when the go-sdk's
// session ends; the table also closes a session idle for longer than the
// idle timeout, since requests the session lane answers never reach the
// go-sdk, whose own idle timer would close a busy session.
type Table struct {
	idle time.Duration // 0: sessions never idle out
	// Logger logs what the table cannot do (a store that fails).
	Logger *slog.Logger
	now    func() time.Time
	// Store, when not nil, holds the records every replica reads: a
	// session this process does not hold is loaded from it, and connected
	// here (Adopt) when a request needs the go-sdk's session.
	Store store.Sessions
	// Adopt connects a go-sdk session here from a record another replica
	// saved.
	Adopt func(rec *store.Session) (*mcp.StreamableServerTransport, *mcp.ServerSession, error)
	// Hub, when not nil, carries to the other replicas what a session's
	// requests changed here (internal/edge/bus).
	Hub *bus.Hub
	// PerCaller is the sessions one caller may hold over all replicas
	// sharing the store (0: no bound).
	PerCaller int
	// Origin is where the initialize request r came from, for the
	// record's caller and address.
	Origin func(ctx context.Context, r *mcp.ServerRequest[*mcp.InitializeParams]) engine.Origin
	// marker is the id of the record that tells whether the store lost
	// its data (resave.go); markerSaved that it was saved once.
	marker      string
	markerSaved atomic.Bool
	// Health, when not nil, is told what each probe found.
	Health Health
	// OnLost, when set, saves again what else this replica holds when a
	// probe finds the store lost its data.
	OnLost func()

	mu   sync.Mutex
	live map[string]*Entry
}

// Entry is a record with what the process knows of its use.
type Entry struct {
	rec    store.Session
	ss     *mcp.ServerSession // nil: loaded from the store, not connected here yet
	last   time.Time          // the last request's end, or when it opened
	active int                // requests in flight
	timer  *time.Timer
	// transport serves a session this process adopted (connected from
	// the store's record); nil for one the go-sdk's handler opened.
	transport *mcp.StreamableServerTransport
	saved     time.Time // when the store last renewed the record
	loaded    time.Time // when the record was read from the store
}

// NewTable returns an empty table whose sessions idle out after idle
// (0: never).
func NewTable(idle time.Duration, logger *slog.Logger) *Table {
	return &Table{idle: idle, Logger: logger, now: time.Now, live: map[string]*Entry{}}
}

// Observe is the server's receiving middleware that keeps the records:
// a session's facts are read from what the go-sdk accepted.
func (t *Table) Observe(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok || ss == nil || ss.ID() == "" {
			return res, err
		}
		if r, ok := req.(*mcp.ServerRequest[*mcp.InitializeParams]); ok && err == nil {
			t.opened(ctx, ss, r, res)
			return res, err
		}
		// Any other first request of a session (a refused initialize, a
		// ping that opened one) is kept too, unnamed: the table's idle
		// timer is the only one that closes the go-sdk's sessions (see
		// httpServing).
		t.seen(ss)
		if err != nil {
			return res, err
		}
		// A message another replica received was saved there: saving this
		// replica's view of the record again could undo a later change.
		switch r := req.(type) {
		case *mcp.InitializedRequest:
			var meta mcp.Meta
			if r.Params != nil {
				meta = r.Params.Meta
			}
			t.update(ss.ID(), !Replayed(meta), func(rec *store.Session) bool { rec.Initialized = true; return true })
		case *mcp.ServerRequest[*mcp.SetLoggingLevelParams]:
			if p := r.Params; p != nil {
				t.update(ss.ID(), !Replayed(p.Meta), func(rec *store.Session) bool { rec.LogLevel = p.Level; return true })
				t.tell(ctx, ss.ID(), p.Meta, method, &mcp.SetLoggingLevelParams{Meta: ReplayMeta(), Level: p.Level})
			}
		case *mcp.SubscribeRequest:
			if p := r.Params; p != nil {
				t.update(ss.ID(), !Replayed(p.Meta), func(rec *store.Session) bool {
					if slices.Contains(rec.Subscriptions, p.URI) {
						return false
					}
					rec.Subscriptions = append(rec.Subscriptions, p.URI)
					return true
				})
				t.tell(ctx, ss.ID(), p.Meta, method, &mcp.SubscribeParams{Meta: ReplayMeta(), URI: p.URI})
			}
		case *mcp.UnsubscribeRequest:
			if p := r.Params; p != nil {
				t.update(ss.ID(), !Replayed(p.Meta), func(rec *store.Session) bool {
					n := len(rec.Subscriptions)
					rec.Subscriptions = slices.DeleteFunc(rec.Subscriptions, func(u string) bool { return u == p.URI })
					return len(rec.Subscriptions) != n
				})
				t.tell(ctx, ss.ID(), p.Meta, method, &mcp.UnsubscribeParams{Meta: ReplayMeta(), URI: p.URI})
			}
		}
		return res, err
	}
}

// opened records the session ss, which the client initialized with r.
func (t *Table) opened(ctx context.Context, ss *mcp.ServerSession, r *mcp.ServerRequest[*mcp.InitializeParams], res mcp.Result) {
	o := t.Origin(ctx, r)
	rec := store.Session{ID: ss.ID(), Remote: o.Remote}
	if r.Params != nil {
		rec.Version, rec.Client, rec.Capabilities = r.Params.ProtocolVersion, r.Params.ClientInfo, r.Params.Capabilities
	}
	if r.Extra != nil && r.Extra.TokenInfo != nil {
		rec.Subject = r.Extra.TokenInfo.UserID
	}
	rec.Caller = limit.CallerBucket(ctx, o)
	if ir, ok := res.(*mcp.InitializeResult); ok && ir != nil {
		rec.Negotiated = ir.ProtocolVersion
	}
	e := &Entry{rec: rec, ss: ss, last: t.now()}
	t.mu.Lock()
	if cur := t.live[rec.ID]; cur != nil {
		if cur.rec.Version != "" || cur.ss != ss { // initialized twice: the go-sdk refuses that, keep the first
			t.mu.Unlock()
			return
		}
		cur.rec = rec // kept unnamed (seen) before its initialize
		t.mu.Unlock()
		t.save(ctx, cur, rec)
		return
	}
	t.live[rec.ID] = e
	if t.idle > 0 {
		e.timer = time.AfterFunc(t.idle, func() { t.expire(rec.ID) })
	}
	t.mu.Unlock()
	t.save(ctx, e, rec)
	t.admit(ctx, rec)
	go t.dropAfter(ss)
}

// admit counts rec among its caller's sessions in the store, and ends,
// everywhere, those of the caller's sessions beyond its share. A store
// that fails is logged: the replica's own quota still holds.
func (t *Table) admit(ctx context.Context, rec store.Session) {
	if t.Store == nil || t.PerCaller <= 0 {
		return
	}
	evicted, err := t.Store.Admit(context.WithoutCancel(ctx), &rec, t.PerCaller, t.ttl())
	if err != nil {
		t.Logger.Warn("vurb: counting a session in the shared store failed; only this replica's quota holds", "session", rec.ID, "err", err)
	}
	for _, id := range evicted {
		t.Ended(ctx, id)
	}
}

// ttl is how long the store keeps a record nobody renews.
func (t *Table) ttl() time.Duration {
	if t.idle > 0 {
		return t.idle
	}
	return DefaultIdleTimeout
}

// save writes rec, the record of e, to the store, if there is one. A store
// that fails is logged: the session goes on in this process.
func (t *Table) save(ctx context.Context, e *Entry, rec store.Session) {
	if t.Store == nil {
		return
	}
	if err := t.Store.Save(context.WithoutCancel(ctx), &rec, t.ttl()); err != nil {
		t.Logger.Warn("vurb: saving a session's record failed; other replicas cannot serve it", "session", rec.ID, "err", err)
		return
	}
	t.mu.Lock()
	e.saved = t.now()
	t.mu.Unlock()
}

// seen keeps ss, which no initialize opened, so that it idles out.
func (t *Table) seen(ss *mcp.ServerSession) {
	t.mu.Lock()
	if t.live[ss.ID()] != nil {
		t.mu.Unlock()
		return
	}
	id := ss.ID()
	e := &Entry{rec: store.Session{ID: id}, ss: ss, last: t.now()}
	t.live[id] = e
	if t.idle > 0 {
		e.timer = time.AfterFunc(t.idle, func() { t.expire(id) })
	}
	t.mu.Unlock()
	go t.dropAfter(ss)
}

// dropAfter forgets ss once it has ended.
func (t *Table) dropAfter(ss *mcp.ServerSession) {
	defer func() {
		if p := recover(); p != nil {
			t.Logger.Error("vurb: forgetting a session panicked", "panic", fmt.Sprint(p))
		}
	}()
	_ = ss.Wait()
	t.mu.Lock()
	if e := t.live[ss.ID()]; e != nil && e.ss == ss {
		delete(t.live, ss.ID())
		if e.timer != nil {
			e.timer.Stop()
		}
	}
	t.mu.Unlock()
}

// update changes the record of the session id, if it is live, and, when
// save is set, saves it for the other replicas if f reports a change.
func (t *Table) update(id string, save bool, f func(*store.Session) bool) {
	t.mu.Lock()
	e := t.live[id]
	if e == nil {
		t.mu.Unlock()
		return
	}
	rec := e.rec
	rec.Subscriptions = slices.Clone(rec.Subscriptions)
	if !f(&rec) {
		t.mu.Unlock()
		return
	}
	e.rec = rec
	t.mu.Unlock()
	if save {
		t.save(context.Background(), e, rec)
	}
}

// tell announces to the other replicas that the session id made the
// request method with params, unless meta marks it as replayed here
// already. It runs before the go-sdk answers the request, so that the
// client's next request, wherever it lands, finds the change made.
func (t *Table) tell(ctx context.Context, id string, meta mcp.Meta, method string, params any) {
	if t.Hub == nil || Replayed(meta) {
		return
	}
	if msg := ReplayRequest(method, params); msg != nil {
		t.Hub.AnnounceAndWait(ctx, id, msg)
	}
}

// Holding returns the entry of the session id when this process holds a
// go-sdk session of it. A record read from the store and not connected
// is forgotten instead, to be read anew.
func (t *Table) Holding(id string) (*Entry, store.Session) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.live[id]
	if e == nil {
		return nil, store.Session{}
	}
	if e.ss == nil {
		delete(t.live, id)
		return nil, store.Session{}
	}
	return e, e.rec
}

// Forget drops what this process holds of the session id, which another
// replica ended.
func (t *Table) Forget(id string) {
	t.mu.Lock()
	e := t.live[id]
	delete(t.live, id)
	t.mu.Unlock()
	if e != nil && e.ss != nil {
		e.ss.Close()
	}
}

// Begin counts a request on the session id as in flight, and returns its
// record and entry when the session is live here or in the store (a nil
// entry otherwise), or the store's error when it could not tell: a store
// down is no proof that the session ended. A record read from the store
// is kept for a moment, so that a session's calls do not each read it; a
// record the store holds is renewed, at most once in a quarter of its
// life.
func (t *Table) Begin(ctx context.Context, id string) (store.Session, *Entry, error) {
	t.mu.Lock()
	e := t.live[id]
	now := t.now()
	if e != nil && e.ss == nil && now.Sub(e.loaded) > storedRecordFresh {
		delete(t.live, id) // read anew: another replica may have changed it
		e = nil
	}
	if e == nil {
		t.mu.Unlock()
		if t.Store == nil {
			return store.Session{}, nil, nil
		}
		return t.Load(ctx, id)
	}
	e.active++
	rec := e.rec
	renew := t.Store != nil && now.Sub(e.saved) > t.ttl()/4
	if renew {
		e.saved = now // one renewal at a time
	}
	t.mu.Unlock()
	if renew {
		go t.save(context.WithoutCancel(ctx), e, rec)
	}
	return rec, e, nil
}

// Local reports whether e is a session this process's go-sdk handler
// opened (and serves), rather than one read from the store.
func (t *Table) Local(e *Entry) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return e.ss != nil && e.transport == nil
}

// storedRecordFresh is how long a record read from the store answers a
// session's requests before it is read again.
const storedRecordFresh = time.Second

// Load reads the session id's record from the store and keeps it, not
// connected yet (see connect).
func (t *Table) Load(ctx context.Context, id string) (store.Session, *Entry, error) {
	rec, err := t.Store.Load(ctx, id)
	if errors.Is(err, store.ErrSessionNotFound) {
		return store.Session{}, nil, nil
	}
	if err != nil {
		return store.Session{}, nil, err
	}
	if rec.ID != id { // a record that is not the one asked for serves nobody
		return store.Session{}, nil, fmt.Errorf("the store answered session %q with the record of %q", id, rec.ID)
	}
	now := t.now()
	e := &Entry{rec: *rec, last: now, loaded: now, saved: now, active: 1}
	t.mu.Lock()
	if cur := t.live[id]; cur != nil { // loaded or opened meanwhile
		cur.active++
		r := cur.rec
		t.mu.Unlock()
		return r, cur, nil
	}
	t.live[id] = e
	t.mu.Unlock()
	return *rec, e, nil
}

// Connect gives the entry of a session opened on another replica a
// go-sdk session here, from its record, and returns the transport that
// serves it; fresh reports that this call connected it.
func (t *Table) Connect(e *Entry) (_ *mcp.StreamableServerTransport, fresh bool, _ error) {
	t.mu.Lock()
	if e.transport != nil {
		tr := e.transport
		t.mu.Unlock()
		return tr, false, nil
	}
	rec := e.rec
	t.mu.Unlock()
	tr, ss, err := t.Adopt(&rec)
	if err != nil {
		return nil, false, err
	}
	t.mu.Lock()
	if e.transport != nil { // connected meanwhile
		tr = e.transport
		t.mu.Unlock()
		ss.Close()
		return tr, false, nil
	}
	e.transport, e.ss, e.loaded = tr, ss, t.now()
	if t.idle > 0 && e.timer == nil {
		id := rec.ID
		e.timer = time.AfterFunc(t.idle, func() { t.expire(id) })
	}
	t.mu.Unlock()
	go t.dropAfter(ss)
	return tr, true, nil
}

// Ended forgets the session id everywhere: its client ended it.
func (t *Table) Ended(ctx context.Context, id string) {
	t.mu.Lock()
	e := t.live[id]
	delete(t.live, id)
	t.mu.Unlock()
	if e != nil && e.ss != nil {
		e.ss.Close()
	}
	if t.Store != nil {
		if err := t.Store.Delete(context.WithoutCancel(ctx), id); err != nil {
			t.Logger.Warn("vurb: deleting a session's record failed; it expires by itself", "session", id, "err", err)
		}
	}
	if t.Hub != nil {
		t.Hub.Ended(ctx, id) // a DELETE answered is ended everywhere
	}
}

// Record returns e's record as it stands.
func (t *Table) Record(e *Entry) store.Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	return e.rec
}

// End counts the request begin counted as done.
func (t *Table) End(e *Entry) {
	if e == nil {
		return
	}
	t.mu.Lock()
	e.active--
	e.last = t.now()
	t.mu.Unlock()
}

// expire closes the session id if it has had no request for the idle
// timeout, and otherwise looks again when it might have.
func (t *Table) expire(id string) {
	t.mu.Lock()
	e := t.live[id]
	if e == nil {
		t.mu.Unlock()
		return
	}
	if left := t.idle - t.now().Sub(e.last); e.active > 0 || left > 0 {
		e.timer.Reset(max(left, t.idle/16, time.Millisecond))
		t.mu.Unlock()
		return
	}
	ss := e.ss
	t.mu.Unlock()
	if ss != nil {
		ss.Close() // the go-sdk forgets it; dropAfter forgets the record
	}
}

// MayUse reports whether the holder of token may use the session
// of rec: the subject that opened it, as the go-sdk checks.
func MayUse(rec *store.Session, token *auth.TokenInfo) bool {
	if rec.Subject == "" {
		return true
	}
	return token != nil && token.UserID == rec.Subject
}

// Transport returns the transport that serves e, a session adopted from
// the store; nil for one the go-sdk's handler opened.
func (t *Table) Transport(e *Entry) *mcp.StreamableServerTransport {
	t.mu.Lock()
	defer t.mu.Unlock()
	return e.transport
}
