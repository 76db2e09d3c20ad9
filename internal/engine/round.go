package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/schema"
)

// ErrInputRequired is what a handler returns (wrapped or not) to end the
// round once it has asked for input it does not have yet: the request is
// answered with an input-required result holding every request the
// handler made, and the client retries it with the answers.
var ErrInputRequired = errors.New("vurb: input required from the client")

// Round is the multi-round-trip side of one request (a tool call, a prompt
// get or a resource read) of revision 2026-07-28 or later: the answers the
// client sent with it, the state the server carried over, and the requests
// the handler makes for the next round. It is safe for concurrent use: a
// handler may ask from several goroutines.
type Round struct {
	answers mcp.InputResponseMap
	caps    *mcp.ClientCapabilities
	carried []byte
	session *mcp.ServerSession // set for handshake-era requests
	// detached: a handshake-era request answered away from its session
	// (Origin.Detached), whose input requests hand the call over.
	detached bool
	// validator is the app's (Runtime.Validator), for the codecs of what
	// the round asks.
	validator *schema.Validator
	version   string // the request's revision, "" in-process
	// What the round's state is sealed to (see Binding), computed when
	// first needed.
	request string
	origin  *Origin
	args    []byte
	bind    string

	mu    sync.Mutex
	asked mcp.InputRequestMap
	keep  []byte
}

// Start sets what the client sent with the request.
func (r *Round) Start(answers mcp.InputResponseMap, caps *mcp.ClientCapabilities, carried []byte) {
	r.answers, r.caps, r.carried = answers, caps, carried
}

// Validator returns the app's validator, nil outside an app's request.
func (r *Round) Validator() *schema.Validator { return r.validator }

// Session returns the session of a handshake-era request, which can be
// asked for input directly, in the same round; nil for a request of a
// sessionless revision, which is asked through rounds.
//
// In a detached call it hands the call over to the go-sdk's session (see
// ErrHandover), which asks there.
func (r *Round) Session() *mcp.ServerSession {
	if r.detached {
		panic(handover{})
	}
	return r.session
}

// Legacy reports whether a request of protocol revision version on session
// is asked for input directly (server-initiated requests on its session)
// rather than through rounds.
func Legacy(session *mcp.ServerSession, version string) bool {
	return session != nil && (version == "" || version < FirstSessionlessRevision)
}

// Answer returns the client's answer to the request id, if it sent one.
func (r *Round) Answer(id string) (mcp.InputResponse, bool) {
	a, ok := r.answers[id]
	return a, ok && a != nil
}

// Capabilities returns what the client declared it supports, or nil when
// it did not say.
func (r *Round) Capabilities() *mcp.ClientCapabilities {
	r.resolveCaps()
	return r.caps
}

// resolveCaps reads the capabilities of an origin that defers them.
func (r *Round) resolveCaps() {
	if r.caps == nil && r.origin != nil && r.origin.Lazy != nil {
		r.caps = r.origin.Resolve().Capabilities
	}
}

// Declares reports whether the client declared c. A served request whose
// client declared nothing we can see (a stateless handshake-era request:
// its capabilities went with an initialize this server never saw) declares
// nothing; only an in-process call, where there is no client to ask the
// question of, counts as declaring everything.
func (r *Round) Declares(c Capability) bool {
	r.resolveCaps()
	if r.caps == nil {
		return r.version == ""
	}
	return c.Declared(r.caps)
}

// Ask records a request for the next round.
func (r *Round) Ask(id string, req mcp.InputRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.asked == nil {
		r.asked = mcp.InputRequestMap{}
	}
	r.asked[id] = req
}

// Asked returns the requests made this round.
func (r *Round) Asked() mcp.InputRequestMap {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.asked)
}

// Carried returns the data the previous round kept, or nil.
func (r *Round) Carried() []byte { return r.carried }

// Keep sets the data the next round receives.
func (r *Round) Keep(data []byte) {
	r.mu.Lock()
	r.keep = data
	r.mu.Unlock()
}

// Kept returns the data to carry to the next round.
func (r *Round) Kept() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.keep
}

type roundKey struct{}

// WithRound returns ctx carrying r, for handlers that run outside a tool
// call (prompts, resources).
func WithRound(ctx context.Context, r *Round) context.Context {
	return context.WithValue(ctx, roundKey{}, r)
}

// RoundFrom returns the round of the request ctx belongs to, or nil.
func RoundFrom(ctx context.Context) *Round {
	if c := CallFrom(ctx); c != nil && c.round != nil {
		return c.round
	}
	r, _ := ctx.Value(roundKey{}).(*Round)
	return r
}

// OpenRound starts a round of request (a tool's key, "prompt:name",
// "resource:uri") from what o carried with args: it opens the state, which
// must have been sealed for the same request, caller and arguments (see
// Binding), and returns the protocol error a client reads when it fails.
func OpenRound(ctx context.Context, rt *Runtime, r *Round, request string, o *Origin, args []byte) error {
	r.request, r.origin, r.args, r.validator = request, o, args, rt.Validator
	var carried []byte
	if o.RequestState != "" {
		var err error
		if carried, err = rt.Sealer.Open(ctx, r.binding(), o.RequestState, rt.now()); err != nil {
			return InvalidState(err)
		}
	}
	r.Start(o.Answers, o.Capabilities, carried)
	r.version = o.Version
	if Legacy(o.Session, o.Version) {
		r.session = o.Session
	}
	r.detached = o.Detached && (o.Version == "" || o.Version < FirstSessionlessRevision)
	return nil
}

// InvalidState is the protocol error for a requestState that cannot be
// trusted: invalid params, saying what to do.
func InvalidState(err error) error {
	if errors.Is(err, ErrStateUnchecked) { // the state may be good: the store was out of reach
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("invalid requestState: %v; send the request again without requestState and inputResponses", err)}
}

// SealRound returns the requests a round asked for and the sealed state of
// the next round, or an error when the handler asked for nothing.
func SealRound(rt *Runtime, r *Round) (mcp.InputRequestMap, string, error) {
	asked := r.Asked()
	if len(asked) == 0 {
		return nil, "", errors.New("the handler returned ErrInputRequired without asking for any input")
	}
	kept := r.Kept()
	if len(kept) > rt.Sealer.MaxBytes() {
		return nil, "", fmt.Errorf("the state kept for the next round is %d bytes; the limit is %d", len(kept), rt.Sealer.MaxBytes())
	}
	return asked, rt.Sealer.Seal(r.binding(), kept, rt.now()), nil
}

// binding is what the round's state is sealed to.
func (r *Round) binding() string {
	if r.bind == "" {
		r.bind = Binding(r.request, r.origin, r.args)
	}
	return r.bind
}

// Binding is what the state of a round is sealed to: the request, the
// identity of the caller (the subject of its verified token, none for an
// anonymous caller) and a digest of the arguments, read as JSON values so
// that a client re-encoding the same arguments (spacing, member order)
// still matches. A state sealed for Alice, for another request or for
// other arguments does not open for Bob, or for them.
func Binding(request string, o *Origin, args []byte) string {
	h := sha256.New()
	h.Write([]byte(request))
	h.Write([]byte{0})
	if o != nil && o.Token != nil {
		h.Write([]byte("sub:" + o.Token.UserID))
	}
	h.Write([]byte{0})
	h.Write(canonicalJSON(args))
	return string(h.Sum(nil))
}

// canonicalJSON re-encodes a JSON value with its object members sorted and
// numbers as written; nothing (or null) is the empty object, as a call
// without arguments is one with {}. Bytes that are not JSON stay as they
// are.
func canonicalJSON(raw []byte) []byte {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return []byte("{}")
	}
	d := json.NewDecoder(bytes.NewReader(trimmed))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}
