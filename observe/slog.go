package observe

import (
	"context"
	"log/slog"
)

// Slog returns an Observer that logs every event through logger:
// call ends at Info (Warn when they failed), the rest at Debug.
func Slog(logger *slog.Logger) Observer {
	return func(ctx context.Context, e Event) {
		level := slog.LevelDebug
		attrs := []slog.Attr{slog.String("tool", e.Tool), slog.String("key", e.Key)}
		if e.RequestID != "" {
			attrs = append(attrs, slog.String("request_id", e.RequestID))
		}
		switch e.Kind {
		case CallFinished:
			level = slog.LevelInfo
			if e.Outcome != OutcomeOK {
				level = slog.LevelWarn
			}
			attrs = append(attrs, slog.Duration("duration", e.Duration), slog.String("outcome", string(e.Outcome)))
		case CacheInvalidated:
			attrs = append(attrs, slog.Any("patterns", e.Patterns))
		case ToolRegistered:
			attrs = append(attrs, slog.String("name", e.Name))
		case HandlerOverdue:
			level = slog.LevelWarn
		case HandlerReturned:
			level = slog.LevelInfo
			attrs = append(attrs, slog.Duration("late_by", e.Duration))
		}
		logger.LogAttrs(ctx, level, "vurb "+e.Kind.String(), attrs...)
	}
}
