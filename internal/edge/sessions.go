package edge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SessionRecord is what vurb knows of one handshake-era session, read
// from its initialize request and kept up to date by the requests that
// change it (notifications/initialized, logging/setLevel). It is small and
// plain data, so that a store outside the process can hold it; the session
// lane answers a session's calls from it, without the go-sdk's session.
type SessionRecord struct {
	ID string `json:"id"`
	// Subject is the verified subject that opened the session ("" for an
	// anonymous one): only that subject may use it, as the go-sdk checks.
	Subject string `json:"subject,omitempty"`
	// Remote is the network address of the request that opened it.
	Remote string `json:"remote,omitempty"`
	// Version is the revision the client asked for at initialize, which a
	// handler reads as the request's (as the go-sdk's request does).
	Version      string                  `json:"protocolVersion,omitempty"`
	Client       *mcp.Implementation     `json:"clientInfo,omitempty"`
	Capabilities *mcp.ClientCapabilities `json:"capabilities,omitempty"`
	// LogLevel is what the client set with logging/setLevel, "" before.
	LogLevel mcp.LoggingLevel `json:"logLevel,omitempty"`
	// Initialized: the client sent notifications/initialized.
	Initialized bool `json:"initialized,omitempty"`
}

// A SessionStore keeps the records of handshake-era sessions where every
// replica of a server reads them, so that a session opened on one replica
// can be served by any. The default keeps none: a process serves its own
// sessions.
type SessionStore interface {
	// Save stores rec, replacing the record of the same id, for ttl from
	// now (each save renews it).
	Save(ctx context.Context, rec *SessionRecord, ttl time.Duration) error
	// Load returns the record of id, or an error wrapping
	// ErrSessionNotFound when there is none (or it expired).
	Load(ctx context.Context, id string) (*SessionRecord, error)
	// Delete forgets the record of id; forgetting an unknown one is no
	// error.
	Delete(ctx context.Context, id string) error
}

// ErrSessionNotFound is what a SessionStore's Load returns, wrapped, for
// a session it does not hold.
var ErrSessionNotFound = errors.New("vurb: session not found")

// sessionTable holds the records of one server's live sessions. A record
// is made when a session is initialized and dropped when the go-sdk's
// session ends; the table also closes a session idle for longer than the
// idle timeout, since requests the session lane answers never reach the
// go-sdk, whose own idle timer would close a busy session.
type sessionTable struct {
	idle   time.Duration // 0: sessions never idle out
	logger *slog.Logger
	now    func() time.Time

	mu   sync.Mutex
	live map[string]*sessionEntry
}

// sessionEntry is a record with what the process knows of its use.
type sessionEntry struct {
	rec    SessionRecord
	ss     *mcp.ServerSession
	last   time.Time // the last request's end, or when it opened
	active int       // requests in flight
	timer  *time.Timer
}

func newSessionTable(idle time.Duration, logger *slog.Logger) *sessionTable {
	return &sessionTable{idle: idle, logger: logger, now: time.Now, live: map[string]*sessionEntry{}}
}

// observe is the server's receiving middleware that keeps the records:
// a session's facts are read from what the go-sdk accepted.
func (t *sessionTable) observe(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok || ss == nil || ss.ID() == "" {
			return res, err
		}
		switch r := req.(type) {
		case *mcp.ServerRequest[*mcp.InitializeParams]:
			t.opened(ctx, ss, r)
		case *mcp.InitializedRequest:
			t.update(ss.ID(), func(rec *SessionRecord) { rec.Initialized = true })
		case *mcp.ServerRequest[*mcp.SetLoggingLevelParams]:
			if r.Params != nil {
				t.update(ss.ID(), func(rec *SessionRecord) { rec.LogLevel = r.Params.Level })
			}
		}
		return res, err
	}
}

// opened records the session ss, which the client initialized with r.
func (t *sessionTable) opened(ctx context.Context, ss *mcp.ServerSession, r *mcp.ServerRequest[*mcp.InitializeParams]) {
	o := OriginOf(ctx, r, nil)
	rec := SessionRecord{ID: ss.ID(), Remote: o.Remote}
	if r.Params != nil {
		rec.Version, rec.Client, rec.Capabilities = r.Params.ProtocolVersion, r.Params.ClientInfo, r.Params.Capabilities
	}
	if r.Extra != nil && r.Extra.TokenInfo != nil {
		rec.Subject = r.Extra.TokenInfo.UserID
	}
	e := &sessionEntry{rec: rec, ss: ss, last: t.now()}
	t.mu.Lock()
	if t.live[rec.ID] != nil { // initialized twice: the go-sdk refuses that, keep the first
		t.mu.Unlock()
		return
	}
	t.live[rec.ID] = e
	if t.idle > 0 {
		e.timer = time.AfterFunc(t.idle, func() { t.expire(rec.ID) })
	}
	t.mu.Unlock()
	go t.dropAfter(ss)
}

// dropAfter forgets ss once it has ended.
func (t *sessionTable) dropAfter(ss *mcp.ServerSession) {
	defer func() {
		if p := recover(); p != nil {
			t.logger.Error("vurb: forgetting a session panicked", "panic", fmt.Sprint(p))
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

// update changes the record of the session id, if it is live.
func (t *sessionTable) update(id string, f func(*SessionRecord)) {
	t.mu.Lock()
	if e := t.live[id]; e != nil {
		f(&e.rec)
	}
	t.mu.Unlock()
}

// begin counts a request on the session id as in flight, and returns its
// record when the session is live and initialized (nil otherwise).
func (t *sessionTable) begin(id string) (SessionRecord, *sessionEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.live[id]
	if e == nil {
		return SessionRecord{}, nil
	}
	e.active++
	return e.rec, e
}

// end counts the request begin counted as done.
func (t *sessionTable) end(e *sessionEntry) {
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
func (t *sessionTable) expire(id string) {
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
	ss.Close() // the go-sdk forgets it; dropAfter forgets the record
}

// mayUse reports whether the holder of token may use the session of rec:
// the subject that opened it, as the go-sdk checks.
func (rec *SessionRecord) mayUse(token *auth.TokenInfo) bool {
	if rec.Subject == "" {
		return true
	}
	return token != nil && token.UserID == rec.Subject
}
