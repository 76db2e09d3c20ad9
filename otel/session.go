package vurbotel

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// sessions counts open sessions and records how long each lasted, and
// keeps the protocol version each negotiated.
type sessions struct {
	metrics *instruments
	// versions holds, for each open session, the version the server
	// answered its initialize with: the go-sdk keeps only the one the
	// client asked for (InitializeParams), which can be any string.
	versions sync.Map // *mcp.ServerSession → string
}

// protocol is the protocol version of a request: its session's
// negotiated one, else the one it names (the per-request version of
// 2026-07-28, or the session's requested one on a replica that did not
// see its initialize) if that is a known revision, else otherName.
func (s *sessions) protocol(session mcp.Session, req mcp.Request) string {
	if ss, ok := session.(*mcp.ServerSession); ok && ss != nil {
		if v, ok := s.versions.Load(ss); ok {
			return v.(string)
		}
	}
	if v, ok := req.(interface{ ProtocolVersion() string }); ok {
		return revision(v.ProtocolVersion())
	}
	return ""
}

// opened counts a session that just completed its initialize handshake,
// with protocol its negotiated version, and records it once it ends. The
// go-sdk tells middleware when a session starts (its initialize request)
// but not when it ends, so one goroutine per session waits for its end
// (ServerSession.Wait): a few KiB of stack for the session's life, nothing
// per request. Sessionless requests (2026-07-28, vurb.WithStateless) have no
// initialize, hence no session here.
func (s *sessions) opened(session mcp.Session, protocol string) {
	ss, ok := session.(*mcp.ServerSession)
	if !ok || ss == nil {
		return
	}
	start := time.Now()
	set := attribute.NewSet()
	if protocol != "" {
		set = attribute.NewSet(semconv.McpProtocolVersionKey.String(protocol))
	}
	ctx := context.Background() // the session outlives the request
	s.metrics.activeSessions.Add(ctx, 1, metric.WithAttributeSet(set))
	s.versions.Store(ss, protocol)
	go func() {
		// This goroutine is vurb's: a panic of the meter provider's
		// instruments must not leave it, or it would end the process.
		defer func() { _ = recover() }()
		_ = ss.Wait()
		s.versions.Delete(ss)
		s.metrics.activeSessions.Add(ctx, -1, metric.WithAttributeSet(set))
		s.metrics.sessionDuration.RecordSet(ctx, time.Since(start).Seconds(), set)
	}()
}
