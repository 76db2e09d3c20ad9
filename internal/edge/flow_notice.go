package edge

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/engine"
)

// A session whose workflow moves (a machine keyed by session) lists other
// tools now, and is told so with notifications/tools/list_changed, to it
// alone. The go-sdk sends that notification only to every session at once
// (when the server's tools change), so vurb sends the session a progress
// notification carrying a marker no client can send, and a sending
// middleware of vurb's servers turns it, before anything is written, into
// the list_changed the go-sdk itself would write.

// toolsChangedMarker is the progress token that marks the notice.
type toolsChangedMarker struct{}

// toolsChangedNotice is the sending middleware that turns the marked
// progress notification into notifications/tools/list_changed.
func toolsChangedNotice(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/progress" {
			if p, ok := req.GetParams().(*mcp.ProgressNotificationParams); ok && p.ProgressToken == (toolsChangedMarker{}) {
				ss, _ := req.GetSession().(*mcp.ServerSession)
				return next(ctx, "notifications/tools/list_changed", &mcp.ServerRequest[*mcp.ToolListChangedParams]{Session: ss, Params: &mcp.ToolListChangedParams{}})
			}
		}
		return next(ctx, method, req)
	}
}

// ToolsChanged tells the session o came through that its list of tools
// changed: this process's go-sdk session of it (stdio, in memory, HTTP),
// and for an HTTP session the other replicas', one of which may hold the
// stream its client listens on. It sends on a goroutine of its own: the
// call that moved the instance answers without waiting for it.
func (a *Site) ToolsChanged(o *engine.Origin) {
	ss, id := o.Session, o.SessionID
	if ss == nil && id == "" {
		return // in process: no session to tell
	}
	go func() {
		a.toolsChangedLocal(ss, id)
		if h := a.replicaHub(); h != nil && id != "" {
			ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
			defer cancel()
			h.ToolsChanged(ctx, id)
		}
	}()
}

// toolsChangedLocal tells this process's go-sdk session ss, or the one
// whose id is id, when it is a session of a server that turns the notice
// into notifications/tools/list_changed.
func (a *Site) toolsChangedLocal(ss *mcp.ServerSession, id string) {
	if ss = a.noticedSession(ss, id); ss == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	if err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: toolsChangedMarker{}}); err != nil {
		a.Logger.Warn("vurb: notifications/tools/list_changed not sent", "err", err.Error())
	}
}

// noticedSession is the session of a noticed server that is ss, or whose
// id is id; nil when there is none in this process.
func (a *Site) noticedSession(ss *mcp.ServerSession, id string) *mcp.ServerSession {
	for _, s := range a.noticed.live() {
		for live := range s.Sessions() {
			if live == ss || id != "" && live.ID() == id {
				return live
			}
		}
	}
	return nil
}
