package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/vurb-go/vurb/internal/edge/sessions"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/store"
)

// Replaying: a replica passes a JSON-RPC message another replica received
// for a session to its own go-sdk session of it, as a POST the go-sdk
// serves like any other (an answer retires the request this replica sent,
// a setLevel or a subscription changes its session), whose reply nobody
// reads.

// replay passes msg, which another replica received for the session id,
// to this front's go-sdk session of it, if it holds one. A record read
// from the store and not connected here is dropped instead: msg may have
// changed it, and the next request reads it anew.
func (f *front) replay(ctx context.Context, id string, msg []byte) {
	if f.table == nil {
		return
	}
	e, rec := f.table.Holding(id)
	if e == nil {
		return
	}
	f.inject(ctx, e, &rec, msg)
}

// inject serves msg on the go-sdk session of e, whose record is rec.
func (f *front) inject(ctx context.Context, e *sessions.Entry, rec *store.Session, msg []byte) {
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, "/", bytes.NewReader(msg))
	if err != nil {
		return
	}
	h := r.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	h.Set(wire.SessionIDHeader, rec.ID)
	if rec.Negotiated != "" {
		h.Set(wire.ProtocolVersionHeader, rec.Negotiated)
	}
	w := &discardWriter{header: http.Header{}}
	tr := f.table.Transport(e)
	switch {
	case tr != nil: // adopted: its transport is ours
		tr.ServeHTTP(w, r)
	case rec.Subject == "":
		f.sdkSessions.ServeHTTP(w, r)
	default: // the go-sdk's handler serves a session to the subject that opened it
		h.Set("Authorization", "Bearer replay")
		r = r.WithContext(context.WithValue(ctx, replaySubjectKey{}, rec.Subject))
		f.sdkReplay.ServeHTTP(w, r)
	}
	if w.code >= 300 {
		f.table.Logger.Debug("vurb: a message from another replica was refused here", "session", rec.ID, "status", w.code)
	}
}

// replaySubjectKey holds, in a replayed request's context, the subject
// of the session it is replayed on.
type replaySubjectKey struct{}

// replayAs wraps the go-sdk's stateful handler so that a replayed request
// carries the token of the subject that opened its session, as the
// go-sdk's handler demands: the request never left this process, and the
// subject is the session record's, not a client's claim.
func replayAs(sdk http.Handler) http.Handler {
	verify := func(ctx context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		subject, _ := r.Context().Value(replaySubjectKey{}).(string)
		if subject == "" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: subject, Expiration: time.Now().Add(time.Minute)}, nil
	}
	return auth.RequireBearerToken(verify, nil)(sdk)
}

// markReplayed returns the notification msg with sessions.ReplayMetaKey in its
// params' _meta (a response, which has none, as it is). The other members
// keep their bytes: nothing is decoded into Go values and back.
func markReplayed(msg []byte) []byte {
	var env, params, meta map[string]json.RawMessage
	if json.Unmarshal(msg, &env) != nil || env["method"] == nil {
		return msg
	}
	if p := env["params"]; p != nil && json.Unmarshal(p, &params) != nil {
		return msg
	}
	if m := params["_meta"]; m != nil && json.Unmarshal(m, &meta) != nil {
		return msg
	}
	if params == nil {
		params = map[string]json.RawMessage{}
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[sessions.ReplayMetaKey] = json.RawMessage("true")
	var err error
	if params["_meta"], err = json.Marshal(meta); err != nil {
		return msg
	}
	if env["params"], err = json.Marshal(params); err != nil {
		return msg
	}
	out, err := json.Marshal(env)
	if err != nil {
		return msg
	}
	return out
}

// discardWriter is the reply of a replayed request: nobody reads it.
type discardWriter struct {
	header http.Header
	code   int
}

func (w *discardWriter) Header() http.Header { return w.header }
func (w *discardWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return len(b), nil
}
func (w *discardWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}
func (w *discardWriter) Flush() {}
