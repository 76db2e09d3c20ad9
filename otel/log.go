package vurbotel

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
)

// LogAttrs returns the trace_id and span_id of ctx's span (none without
// one): what Options gives every call's logger, so that its lines join
// their trace. It is exported for loggers made outside vurb (a
// slog.Handler of your own that adds it to each record).
func LogAttrs(ctx context.Context) []slog.Attr {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return nil
	}
	return []slog.Attr{slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String())}
}
