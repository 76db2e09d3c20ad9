package edge

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/guard"
	"github.com/vurb-go/vurb/internal/edge/lane"
	"github.com/vurb-go/vurb/internal/edge/sessions"
	"github.com/vurb-go/vurb/internal/edge/tasks"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
	"github.com/vurb-go/vurb/store"
)

// HTTPHandler is vurb.HTTPHandler; see its documentation there.
func (a *Site) HTTPHandler(opts ...ServeOption) http.Handler {
	cfg := newServeConfig(opts)
	cfg.mustNotStateLocal("HTTPHandler")
	return a.httpServing(opts...).handler
}

// httpServing is a streamable HTTP handler with what a graceful shutdown
// needs: the SDK server behind it and the requests in flight.
type httpServing struct {
	handler http.Handler
	// cardPaths are where the server card and its catalog are served
	// (card.go), for a mux that routes by path.
	cardPaths []string
	server    *mcp.Server
	inFlight  inFlight
}

// httpServing builds the whole HTTP stack of one handler. A request passes,
// in this order:
//
//  0. the client's address, read from a trusted proxy's forwarding
//     headers (WithTrustedProxies, guard.ClientAddress), for every quota keyed on it;
//  1. the resource metadata document (WithBearerAuth), public and
//     cross-origin: answered before any guard;
//  2. the guard: Host and Origin, the loopback rule against DNS rebinding
//     (guard.HostAndOrigin);
//  3. bearer auth: the token verified, 401/403 otherwise (auth.go); under
//     WithDPoP, the proof first and the jti spent last (dpop.go): 401, or
//     503 when the store that spends it does not answer, 429 when the
//     caller holds its share of it in memory;
//  4. the front door (front): the in-flight count for a graceful
//     shutdown, then, for a POST that some front reads, the body read
//     once within WithMaxBodyBytes and its envelope parsed once (wire.Message);
//  5. the scope challenge (WithScopeChallenges: 403 naming the scopes a call
//     needs, challenge.go);
//  6. a sessionless request (2026-07-28 without a session, or any under
//     WithStateless): the tasks front (package tasks), then the fast lane
//     (internal/edge/lane), each answering what it recognises, then the
//     go-sdk's stateless handler;
//  7. anything else (initialize, a session's requests, its GET stream and
//     DELETE): a live session's plain tools/call and tools/list are the
//     session lane's (internal/edge/lane), answered from the record vurb
//     keeps of the session (internal/edge/sessions); the rest passes the session
//     quota (internal/edge/sessions) to the go-sdk's stateful handler.
//
// Behind the go-sdk's handlers, the server newServer makes answers with
// the same compiled plan, views and middleware. Connection limits and
// timeouts sit outside the handler, in ListenAndServe (listen.go).
func (a *Site) httpServing(opts ...ServeOption) *httpServing {
	cfg := newServeConfig(opts)
	vs := a.views(&cfg) // the handler's one cache of per-caller views
	server := a.newServer(&cfg, vs)
	var ho mcp.StreamableHTTPOptions
	if cfg.sdkHTTP != nil {
		ho = *cfg.sdkHTTP
	}
	ho.Stateless = ho.Stateless || cfg.stateless
	ho.JSONResponse = ho.JSONResponse || cfg.jsonResponse
	if ho.Logger == nil {
		ho.Logger = sdkLogger(a.Logger)
	}
	ho.SessionTimeout = cfg.sessionTimeout(ho.SessionTimeout)
	// Host and Origin are checked once, in front of every path (guard), with
	// the go-sdk's localhost rule unless the user's options turn it off.
	ho.DisableLocalhostProtection = true
	ho.MaxRequestBodyBytes = cfg.maxBodyBytes
	if ho.MaxRequestBodyBytes == 0 {
		ho.MaxRequestBodyBytes = int64(a.MaxBytes) + 64<<10 // the arguments plus the JSON-RPC envelope
	}
	getServer := func(*http.Request) *mcp.Server { return server }
	sessionless := ho
	sessionless.Stateless = true
	f := &front{plan: a.Plan, stateless: ho.Stateless, maxBody: ho.MaxRequestBodyBytes,
		sdkStateless: withRemote(sessionlessRequests(mcp.NewStreamableHTTPHandler(getServer, &sessionless)))}
	if f.maxBody < 0 { // no limit (the go-sdk's negative MaxRequestBodyBytes)
		f.maxBody = math.MaxInt64 - 1
	}
	routes := a.view(&cfg)
	if a.Plan.Searching() {
		// A call_tool the front leaves as it is goes to the go-sdk,
		// whose middleware unwraps it (carriedCalls).
		routes = slices.DeleteFunc(slices.Clone(routes), func(r engine.Route) bool { return r.Wire().Name == engine.CallToolName })
	}
	if !cfg.noLane {
		userCacheable := a.ServerOptions != nil && a.ServerOptions.SetCacheable != nil
		impl := &mcp.Implementation{Name: a.Name, Version: a.Version}
		f.lane = newLane(f.sdkStateless, a.Plan.Runtime(), routes, impl, &ho, userCacheable, a.RequestMW, vs)
	}
	if cfg.sessionStore == nil {
		cfg.sessionStore = a.SessionStore
	}
	if !ho.Stateless {
		if f.lane != nil || cfg.sessionStore != nil {
			// The session lane, and the replicas that share a session
			// store, answer calls this go-sdk handler never sees, so its
			// idle timer would close busy sessions: the table times them
			// out instead.
			f.table = sessions.NewTable(ho.SessionTimeout, a.Logger)
			f.table.Store = cfg.sessionStore
			f.table.Origin = initializeOrigin
			if cfg.sessionCap() > 0 {
				f.table.PerCaller = min(cfg.sessionShare(), cfg.sessionCap())
			}
			f.table.Adopt = func(rec *store.Session) (*mcp.StreamableServerTransport, *mcp.ServerSession, error) {
				tr := &mcp.StreamableServerTransport{SessionID: rec.ID}
				ss, err := server.Connect(context.Background(), tr, &mcp.ServerSessionOptions{State: sessions.State(rec)})
				return tr, ss, err
			}
			server.AddReceivingMiddleware(f.table.Observe)
			ho.SessionTimeout = 0
			if f.table.Store != nil {
				f.table.Health = &a.store // the probe's findings, for the health detail (health.go)
				a.store.watch(f.table.Wiped)
				if a.Tasks != nil {
					f.table.OnLost = a.Tasks.Running.RestoreAll
				}
				f.table.WatchStore(sessions.ProbeEvery)
				if f.table.Hub = a.replicaHub(); f.table.Hub != nil {
					a.busFronts.add(f)
				}
			}
		}
		f.sdkSessions = withRemote(mcp.NewStreamableHTTPHandler(getServer, &ho))
		f.sdkReplay = replayAs(f.sdkSessions)
		f.sessions = sessions.Cap(f.sdkSessions, server, cfg.sessionCap(), cfg.sessionShare(), false)
		f.quota, _ = f.sessions.(*sessions.Quota)
		if f.quota != nil && f.table != nil && f.table.Store != nil {
			// A session closed to make room ends everywhere: its record
			// must not let another replica serve it on.
			f.quota.Ended = func(id string) { f.table.Ended(context.Background(), id) }
		}
	}
	f.tasks = a.taskFront(routes, vs, &ho)
	if cfg.dpop != nil && cfg.bearer == nil {
		panic("vurb: WithDPoP needs WithBearerAuth: proofs are checked with the tokens WithBearerAuth verifies")
	}
	if cfg.bearer != nil {
		cfg.bearer = cfg.bearer.forApp(a.Scopes).withDPoP(cfg.dpop, a.Plan.Runtime().Sealer)
	}
	if cfg.challenges {
		if cfg.bearer == nil {
			panic("vurb: WithScopeChallenges needs WithBearerAuth: a challenge names the resource metadata WithBearerAuth serves, and scopes come from the tokens it verifies")
		}
		if len(a.Scopes) > 0 { // else nothing to challenge for: no body to read
			f.challenger = a.challenger(&cfg, server, routes, vs)
		}
	}
	hs := &httpServing{server: server}
	f.inFlight = &hs.inFlight // which also keeps hs alive as long as the handler
	a.servings.add(hs)        // for the drain (drain.go)
	var served http.Handler = f
	if cfg.bearer != nil {
		served = cfg.bearer.protect(served, a.Logger) // every request, the fast lane's included
	}
	localhost := cfg.sdkHTTP == nil || !cfg.sdkHTTP.DisableLocalhostProtection
	guarded := guard.HostAndOrigin(served, cfg.allowedHosts, cfg.allowedOrigins, localhost)
	if cs := a.cardServerFor(&cfg); cs != nil {
		guarded = cs.wrap(guarded) // card.go: public, any origin, behind its own Host check
		hs.cardPaths = cs.paths()
	}
	hs.handler = guard.ClientAddress(guarded, cfg.trustedProxies)
	if cfg.bearer != nil {
		hs.handler = cfg.bearer.withMetadata(hs.handler) // public, cross-origin: outside the guard
	}
	return hs
}

// front is the one front door of a handler, behind its guards: it reads a
// POST once, when a front needs its body, and sends the request to the
// front that answers it (see httpServing for the order). One endpoint
// serves both protocol generations: a request of revision 2026-07-28 or
// later that names no session is sessionless by definition, and goes to
// the stateless fronts; everything else goes to the stateful handler,
// which the go-sdk refuses to let answer the new revision.
type front struct {
	inFlight   *inFlight
	plan       *engine.Plan
	maxBody    int64
	stateless  bool             // WithStateless: every request is sessionless
	challenger *challenger      // nil: no scope challenges
	tasks      *tasks.TaskFront // nil: no action runs as a task
	lane       *lane.Lane       // nil: WithFastLane(false), or an option it cannot honour

	sdkStateless http.Handler
	sessions     http.Handler    // the session quota and the go-sdk's stateful handler; nil under WithStateless
	sdkSessions  http.Handler    // the go-sdk's stateful handler alone, for replayed messages (replay.go)
	sdkReplay    http.Handler    // sdkSessions for a replayed message of a session with a subject
	quota        *sessions.Quota // nil: sessions unbounded, or none
	table        *sessions.Table // the sessions' records, for the session lane; nil without it
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost { // a POST carries calls; a GET is a standing stream
		f.inFlight.add(1)
		defer f.inFlight.add(-1)
	}
	sessionless := f.stateless || (r.Header.Get(wire.SessionIDHeader) == "" && wire.SessionlessRevision(r.Header.Get(wire.ProtocolVersionHeader)))
	var m *wire.Message
	if f.challenger != nil || f.plan.Searching() || (sessionless && (f.lane != nil || f.tasks != nil)) {
		m = wire.ReadMessage(r, f.maxBody)
	}
	if f.plan.Searching() { // tool search: call_tool is the call it carries, for every front
		m = wire.Carried(r, m, engine.CallToolName, f.unwrap)
	}
	if f.challenger != nil && f.challenger.refuses(w, r, m) {
		return
	}
	if !sessionless {
		f.serveSession(w, r, m)
		return
	}
	if f.tasks != nil && f.tasks.Serve(w, r, m) {
		return
	}
	if f.lane != nil && f.lane.Serve(w, r, m) {
		return
	}
	f.sdkStateless.ServeHTTP(w, r) // r.Body reads what readMessage read: no front consumes it
}

// unwrap reads a call_tool for the front (wire.Carried), except one of a
// tool that mirrors arguments into Mcp-Param headers: its client could
// not know to send them for a call it made through call_tool, so the
// go-sdk's middleware unwraps it, past the go-sdk's header checks, which
// hold call_tool to its own schema.
func (f *front) unwrap(args json.RawMessage) (string, json.RawMessage, bool) {
	name, inner, ok := f.plan.Resolve(engine.CallToolName, args)
	if r, known := f.plan.Route(name); !ok || !known || wire.MirrorsHeaders(r) {
		return "", nil, false // an unknown tool: call_tool's handler says so, in a direct call's words
	}
	return name, inner, true
}

// serveSession serves r, a request of the handshake era, whose body m
// may be read already: the session lane answers a plain call on a live
// session, the go-sdk everything else. With a store.Sessions, a session
// opened on another replica is served here too: its record is read from
// the store, and the go-sdk's session is connected here from it when a
// request needs one.
func (f *front) serveSession(w http.ResponseWriter, r *http.Request, m *wire.Message) {
	id := r.Header.Get(wire.SessionIDHeader)
	if f.table == nil || id == "" {
		f.sessions.ServeHTTP(w, r)
		return
	}
	rec, e, err := f.table.Begin(r.Context(), id)
	if e == nil && err == nil && f.table.Hub != nil && f.table.Hub.Ask(r.Context(), id) {
		// The store does not know it; a replica may hold it all the same.
		rec, e, err = f.table.Begin(r.Context(), id)
	}
	if e == nil && err == nil && f.table.Store != nil && f.table.Health.Recovering(r.Context()) {
		err = sessions.ErrStoreWiped // it may live on a replica that has not saved it again yet
	}
	defer f.table.End(e)
	if err != nil { // the store failed: the session may well live on
		sessions.StoreUnavailable(w, f.table.Logger, "reading a session's record", id, err)
		return
	}
	if e != nil && !sessions.MayUse(&rec, auth.TokenInfoFromContext(r.Context())) {
		// Refused before any path may act on it: a DELETE by another
		// caller must not end the session, nor anything else use it.
		http.Error(w, "session user mismatch", http.StatusForbidden)
		return
	}
	if e != nil && f.table.Hub != nil && r.Method == http.MethodPost {
		if m == nil {
			m = wire.ReadMessage(r, f.maxBody)
		}
		if relayed(m) { // what answers or stops a request of this session another replica may hold
			f.table.Hub.Announce(r.Context(), id, markReplayed(m.Body))
		}
	}
	if e != nil && f.lane != nil && r.Method == http.MethodPost && rec.Initialized {
		if m == nil {
			m = wire.ReadMessage(r, f.maxBody)
		}
		u := f.quota.Busy(id)
		answered := f.lane.ServeSession(w, r, m, &rec)
		f.quota.Idle(u)
		if answered {
			return
		}
	}
	if e != nil && f.table.Store != nil && !f.table.Local(e) {
		f.serveAdopted(w, r, e, id)
		return
	}
	if r.Method == http.MethodDelete && e != nil && f.table.Store != nil {
		// Its owner ended it (checked above): after the go-sdk's answer,
		// everywhere.
		defer f.table.Ended(r.Context(), id)
	}
	f.sessions.ServeHTTP(w, r)
}

// serveAdopted serves r on a session another replica opened, from a
// go-sdk session connected here from its record; id is the session the
// request names (e.rec changes under the table's lock: read it through it).
func (f *front) serveAdopted(w http.ResponseWriter, r *http.Request, e *sessions.Entry, id string) {
	if r.Method == http.MethodDelete {
		f.table.Ended(r.Context(), id)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	tr, fresh, err := f.table.Connect(e)
	if err != nil {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if fresh { // subscribed on other replicas: here too, for this replica's streams
		rec := f.table.Record(e)
		for _, uri := range rec.Subscriptions {
			f.inject(r.Context(), e, &rec, sessions.ReplayRequest("resources/subscribe", &mcp.SubscribeParams{Meta: sessions.ReplayMeta(), URI: uri}))
		}
	}
	defer f.quota.Idle(f.quota.Busy(id))
	tr.ServeHTTP(w, r)
}

// relayed reports whether m is a message every replica holding its
// session must see: an answer to a request the server sent (elicitation,
// sampling, roots), which the replica that sent it waits for, or a
// notification that the session is initialized, about a request in
// flight, or about the client's roots.
func relayed(m *wire.Message) bool {
	if m == nil || !m.Whole {
		return false
	}
	e := m.RPC()
	if !e.OK {
		return false
	}
	if e.Method == nil { // a response: an id, and a result or an error
		return len(e.ID) > 0 && e.Others
	}
	switch string(e.Method) {
	case `"notifications/initialized"`, `"notifications/cancelled"`, `"notifications/roots/list_changed"`:
		return e.ID == nil
	}
	return false
}
