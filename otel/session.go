package vurbotel

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// sessions counts open sessions and records how long each lasted.
type sessions struct {
	metrics *instruments
}

// opened counts a session that just completed its initialize handshake
// and records it once it ends. The go-sdk tells middleware when a session
// starts (its initialize request) but not when it ends, so one goroutine
// per session waits for its end (ServerSession.Wait): a few KiB of stack
// for the session's life, nothing per request. Sessionless requests
// (2026-07-28, vurb.Stateless) have no initialize, hence no session here.
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
	go func() {
		_ = ss.Wait()
		s.metrics.activeSessions.Add(ctx, -1, metric.WithAttributeSet(set))
		s.metrics.sessionDuration.RecordSet(ctx, time.Since(start).Seconds(), set)
	}()
}
