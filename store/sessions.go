package store

import (
	"context"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Session is what vurb keeps of one handshake-era session, read from its
// initialize request and kept up to date by the requests that change it
// (notifications/initialized, logging/setLevel, resources/subscribe): the
// revision and client it initialized with, its capabilities, the log
// level it set and the subject that opened it. It is small and plain
// data, so that a store outside the process can hold it; vurb answers a
// session's plain calls from it, on any replica, without the go-sdk's
// session.
type Session struct {
	ID string `json:"id"`
	// Subject is the verified subject that opened the session ("" for an
	// anonymous one): only that subject may use it, as the go-sdk checks.
	Subject string `json:"subject,omitempty"`
	// Remote is the network address of the request that opened it.
	Remote string `json:"remote,omitempty"`
	// Caller is whom the session counts against in the per-caller quota
	// (vurb.WithMaxSessionsPerCaller): its verified subject, else its
	// host, never a value the client chose.
	Caller string `json:"caller,omitempty"`
	// Version is the revision the client asked for at initialize, which a
	// handler reads as the request's (as the go-sdk's request does).
	Version      string                  `json:"protocolVersion,omitempty"`
	Client       *mcp.Implementation     `json:"clientInfo,omitempty"`
	Capabilities *mcp.ClientCapabilities `json:"capabilities,omitempty"`
	// LogLevel is what the client set with logging/setLevel, "" before.
	LogLevel mcp.LoggingLevel `json:"logLevel,omitempty"`
	// Negotiated is the revision the server answered initialize with.
	Negotiated string `json:"negotiatedProtocolVersion,omitempty"`
	// Initialized: the client sent notifications/initialized.
	Initialized bool `json:"initialized,omitempty"`
	// Subscriptions are the URIs of the resources the session is
	// subscribed to, so that a replica that connects a go-sdk session
	// from the record subscribes it there too.
	Subscriptions []string `json:"subscriptions,omitempty"`
}

// Sessions keeps the records of handshake-era sessions where every
// replica of a server reads them, so that a session opened on one replica
// can be served by any. The default keeps none: a process serves its own
// sessions. Its methods are called from many goroutines at once; an error
// other than ErrSessionNotFound is logged, and each replica then serves
// the sessions it holds.
type Sessions interface {
	// Save stores rec, replacing the record of the same id, for ttl from
	// now (each save renews it).
	Save(ctx context.Context, rec *Session, ttl time.Duration) error
	// Load returns the record of id, or an error wrapping
	// ErrSessionNotFound when there is none (or it expired).
	Load(ctx context.Context, id string) (*Session, error)
	// Delete forgets the record of id, and stops counting it among its
	// caller's sessions; forgetting an unknown one is no error.
	Delete(ctx context.Context, id string) error
	// Admit counts the session of rec among the sessions of rec.Caller
	// for ttl (each Save of rec renews it) and returns the ids of that
	// caller's sessions it no longer counts so that at most max remain:
	// those saved least recently, never rec's own. vurb ends each one
	// returned, on every replica: so the per-caller quota holds for the
	// deployment, not for each replica.
	Admit(ctx context.Context, rec *Session, max int, ttl time.Duration) (evicted []string, err error)
}

// ErrSessionNotFound is what the Load of Sessions returns, wrapped, for a
// session it does not hold.
var ErrSessionNotFound = errors.New("vurb: session not found")
