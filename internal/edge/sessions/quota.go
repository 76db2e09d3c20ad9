package sessions

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/internal/limit"
)

// Quota bounds the handshake-era sessions of one server: limit in
// all, perCaller for one caller (its verified subject, else its host: the
// key PerCaller uses, never a value the client chooses). When a caller at
// its share opens one more, its own session used least recently with no
// request in flight is closed to make room; if all of its sessions are
// busy, it is refused with 429, while everyone else opens sessions as
// before. At the limit, anyone's session used least recently with no
// request in flight is closed to make room; only when every session is
// busy is the new one refused, with 503. Only a stateful
// POST without a session id opens a session; every other request passes.
type Quota struct {
	next      http.Handler
	server    *mcp.Server
	limit     int
	perCaller int
	now       func() time.Time
	// Ended, when set, ends a session closed to make room on every
	// replica (its record deleted from the shared store), not only here.
	Ended func(id string)

	mu      sync.Mutex
	open    map[string]*Use // by session id
	callers map[string]int  // sessions open or being opened, by caller
	total   int             // the sum of callers
}

// Use is what the quota knows of one session.
type Use struct {
	caller string
	last   time.Time // its last request, or when it opened
	active int       // requests in flight (a standing GET stream included)
}

// Cap puts a Quota in front of next, or returns next when
// sessions are unbounded or the server keeps none.
func Cap(next http.Handler, server *mcp.Server, limit, perCaller int, stateless bool) http.Handler {
	if limit <= 0 || stateless {
		return next
	}
	if perCaller <= 0 || perCaller > limit {
		perCaller = limit
	}
	return &Quota{next: next, server: server, limit: limit, perCaller: perCaller, now: time.Now,
		open: map[string]*Use{}, callers: map[string]int{}}
}

// DefaultPerCaller is the default share of one caller: a sixteenth of the
// limit, but at least 16 sessions (all of them under 16).
func DefaultPerCaller(limit int) int {
	return max(limit/16, min(limit, 16))
}

// ServeHTTP counts r against the quota and passes it on, or refuses it.
func (q *Quota) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(wire.SessionIDHeader)
	switch {
	case id != "":
		q.use(w, r, id)
	case r.Method == http.MethodPost && !wire.SessionlessRevision(r.Header.Get(wire.ProtocolVersionHeader)):
		q.opening(w, r)
	default:
		q.next.ServeHTTP(w, r)
	}
}

// use serves a request on the session id, counting it as in flight.
func (q *Quota) use(w http.ResponseWriter, r *http.Request, id string) {
	u := q.Busy(id)
	if r.Method != http.MethodDelete {
		q.next.ServeHTTP(w, r)
		q.Idle(u)
		return
	}
	sw := &writer{ResponseWriter: w}
	q.next.ServeHTTP(sw, r)
	q.Idle(u)
	if sw.code < 300 { // ended by its owner; a refused DELETE leaves it counted
		q.mu.Lock()
		q.forget(id)
		q.mu.Unlock()
	}
}

// Busy counts a request on the session id as in flight until idle is
// given what busy returned; q may be nil (no quota).
func (q *Quota) Busy(id string) *Use {
	if q == nil {
		return nil
	}
	q.mu.Lock()
	u := q.open[id]
	if u != nil {
		u.active++
		u.last = q.now()
	}
	q.mu.Unlock()
	return u
}

// Idle ends the request busy counted on u (nil: none was).
func (q *Quota) Idle(u *Use) {
	if u == nil {
		return
	}
	q.mu.Lock()
	u.active--
	u.last = q.now()
	q.mu.Unlock()
}

// opening serves a request that opens a session, if the caller and the
// server have room for it.
func (q *Quota) opening(w http.ResponseWriter, r *http.Request) {
	caller := limit.CallerBucket(r.Context(), engine.Origin{Token: auth.TokenInfoFromContext(r.Context()), Remote: r.RemoteAddr})
	if status, why := q.reserve(caller); status != 0 {
		w.Header().Set("Retry-After", "30")
		http.Error(w, why, status)
		return
	}
	opened := false
	sw := &writer{ResponseWriter: w, opened: func(id string) {
		// Before the answer leaves: the client may use the session at once.
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.open[id] == nil {
			q.open[id] = &Use{caller: caller, last: q.now()}
			opened = true
		}
	}}
	q.next.ServeHTTP(sw, r)
	sw.header() // an answer that wrote nothing
	q.mu.Lock()
	defer q.mu.Unlock()
	if !opened {
		q.release(caller) // no session came of it
	}
}

// reserve takes a place for a session of caller, making room if it must,
// or returns the status and the text of the refusal.
func (q *Quota) reserve(caller string) (int, string) {
	q.mu.Lock()
	if q.callers[caller] >= q.perCaller || q.total >= q.limit {
		q.prune() // sessions the go-sdk closed (idle, or their client left)
	}
	var victim string
	if n := q.callers[caller]; n >= q.perCaller {
		if victim = q.idlest(caller); victim == "" {
			q.mu.Unlock()
			return http.StatusTooManyRequests, "Too Many Requests: you have " + strconv.Itoa(n) +
				" sessions open and busy, your share of this server's; end sessions you no longer use (DELETE) or reuse one"
		}
		q.forget(victim) // the caller's own idlest session makes room
	} else if q.total >= q.limit {
		if victim = q.idlest(""); victim == "" {
			q.mu.Unlock()
			return http.StatusServiceUnavailable, "Service Unavailable: the server has " + strconv.Itoa(q.limit) +
				" sessions open and busy, its limit; retry later"
		}
		q.forget(victim)
	}
	q.callers[caller]++
	q.total++
	q.mu.Unlock()
	if victim != "" {
		q.close(victim)
	}
	return 0, ""
}

// idlest is the session (of caller, or of anyone when caller is "") used
// least recently with no request in flight, "" when every one is busy.
func (q *Quota) idlest(caller string) string {
	var id string
	var oldest time.Time
	for k, u := range q.open {
		if u.active == 0 && (caller == "" || u.caller == caller) && (id == "" || u.last.Before(oldest)) {
			id, oldest = k, u.last
		}
	}
	return id
}

// prune forgets the sessions the server no longer has.
func (q *Quota) prune() {
	live := make(map[string]bool, len(q.open))
	for ss := range q.server.Sessions() {
		live[ss.ID()] = true
	}
	for id := range q.open {
		if !live[id] {
			q.forget(id)
		}
	}
}

// forget drops the session id from the counts.
func (q *Quota) forget(id string) {
	if u := q.open[id]; u != nil {
		delete(q.open, id)
		q.release(u.caller)
	}
}

func (q *Quota) release(caller string) {
	q.total--
	if q.callers[caller]--; q.callers[caller] <= 0 {
		delete(q.callers, caller)
	}
}

// close ends the session id, which made room for another.
func (q *Quota) close(id string) {
	if q.Ended != nil {
		q.Ended(id)
		return
	}
	for ss := range q.server.Sessions() {
		if ss.ID() == id {
			ss.Close()
			return
		}
	}
}

// writer passes everything through; the quota reads the session id
// the go-sdk sets in its header (opened, when set), and the status, when
// the header is written. Unwrap lets http.ResponseController (the go-sdk's
// flushes and deadlines) reach the writer beneath.
type writer struct {
	http.ResponseWriter
	opened  func(id string)
	written bool
	code    int // the status written, 0 before
}

// header reports the session id of the answer, once.
func (w *writer) header() {
	if w.written {
		return
	}
	w.written = true
	if id := w.Header().Get(wire.SessionIDHeader); id != "" && w.opened != nil {
		w.opened(id)
	}
}

// WriteHeader reports the session id, then writes the status.
func (w *writer) WriteHeader(code int) {
	w.header()
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write reports the session id, then writes p.
func (w *writer) Write(p []byte) (int, error) {
	w.header()
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap is the writer beneath, for http.ResponseController.
func (w *writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush sends what is buffered, for code that asserts http.Flusher.
func (w *writer) Flush() {
	w.header()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
