package vurb

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio returns the standard input/output transport that desktop clients
// (Claude Desktop, IDEs) use to run a server as a child process.
func Stdio() mcp.Transport { return &mcp.StdioTransport{} }

// NewServer returns a go-sdk server with everything the app declares: its
// tools (through opts' tag filters), prompts, resources, completions and
// resource subscriptions. Use it to run the server on a transport of your
// own; Serve and HTTPHandler use it too.
func (a *App) NewServer(opts ...ServeOption) *mcp.Server {
	p := a.built()
	server := mcp.NewServer(&mcp.Implementation{Name: a.cfg.name, Version: a.cfg.version}, &mcp.ServerOptions{
		Instructions:       a.cfg.instructions,
		Logger:             sdkLogger(a.cfg.logger),
		CompletionHandler:  a.complete,
		SubscribeHandler:   a.subscribe,
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
		HasTools:           len(p.tools) > 0,
		HasPrompts:         len(a.prompts) > 0,
		HasResources:       len(a.resources) > 0,
	})
	server.AddReceivingMiddleware(shortUnknownTool)
	a.Attach(server, opts...)
	for _, pr := range a.prompts {
		pr.register(server)
	}
	for _, r := range a.resources {
		r.register(server)
	}
	a.remember(server)
	return server
}

// shortUnknownTool rewrites the SDK's "unknown tool" error, which quotes
// the name whole, with vurb's, which truncates it: a 100 KB name is not sent
// back to its sender. The error is otherwise the same, so a filtered-out
// tool still reads exactly like one that never existed.
func shortUnknownTool(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var rpcErr *jsonrpc.Error
		if method != "tools/call" || !errors.As(err, &rpcErr) || !strings.HasPrefix(rpcErr.Message, "unknown tool ") {
			return res, err
		}
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
			return res, unknownTool(p.Name)
		}
		return res, err
	}
}

// Serve runs the app on transport (Stdio() for desktop clients) until the
// client disconnects or ctx is cancelled; a cancelled ctx is a clean stop
// and returns nil.
func (a *App) Serve(ctx context.Context, transport mcp.Transport, opts ...ServeOption) error {
	server := a.NewServer(opts...)
	defer a.forget(server)
	err := server.Run(ctx, transport)
	if ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err())) {
		return nil
	}
	return err
}

// remember records server for NotifyResourceUpdated, and drops the
// servers the garbage collector has taken since.
func (a *App) remember(server *mcp.Server) {
	a.serversMu.Lock()
	defer a.serversMu.Unlock()
	if a.servers == nil {
		a.servers = map[weak.Pointer[mcp.Server]]struct{}{}
	}
	for w := range a.servers {
		if w.Value() == nil {
			delete(a.servers, w)
		}
	}
	a.servers[weak.Make(server)] = struct{}{}
}

func (a *App) forget(s *mcp.Server) {
	a.serversMu.Lock()
	delete(a.servers, weak.Make(s))
	a.serversMu.Unlock()
}

// NotifyResourceUpdated tells every client subscribed to uri that it
// changed (notifications/resources/updated), on every server the app made.
func (a *App) NotifyResourceUpdated(ctx context.Context, uri string) error {
	a.serversMu.Lock()
	servers := make([]*mcp.Server, 0, len(a.servers))
	for w := range a.servers {
		if s := w.Value(); s != nil {
			servers = append(servers, s)
		}
	}
	a.serversMu.Unlock()
	var errs []error
	for _, s := range servers {
		errs = append(errs, s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}))
	}
	return errors.Join(errs...)
}

// subscribe accepts a subscription to any resource the app declares.
func (a *App) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	for _, r := range a.resources {
		if r.matches(req.Params.URI) {
			return nil
		}
	}
	return mcp.ResourceNotFoundError(req.Params.URI)
}

// complete answers completion/complete from the completers of prompts and
// resource templates. An argument without a completer completes to nothing.
func (a *App) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref, arg := req.Params.Ref, req.Params.Argument
	var others map[string]string
	if req.Params.Context != nil {
		others = req.Params.Context.Arguments
	}
	var completers map[string]Completer
	found := false
	switch ref.Type {
	case "ref/prompt":
		for _, p := range a.prompts {
			if p.name == ref.Name {
				completers, found = p.completers, true
			}
		}
	case "ref/resource":
		for _, r := range a.resources {
			if r.uri == ref.URI {
				completers, found = r.completers, true
			}
		}
	}
	if !found {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "completion: unknown " + strings.TrimPrefix(ref.Type, "ref/") + " " + ref.Name + ref.URI}
	}
	values := []string{}
	if c := completers[arg.Name]; c != nil {
		got, err := c(ctx, arg.Value, others)
		if err != nil {
			return nil, err
		}
		values = append(values, got...)
	}
	const maxValues = 100 // the MCP limit per response
	total := len(values)
	if total > maxValues {
		values = values[:maxValues]
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: total, HasMore: total > maxValues}}, nil
}

// HTTPHandler returns an http.Handler serving the app over MCP's streamable
// HTTP transport; mount it at /mcp. With Stateless() every request is
// self-contained, so replicas need no session affinity.
func (a *App) HTTPHandler(opts ...ServeOption) http.Handler {
	return a.httpServing(opts...).handler
}

// httpServing is a streamable HTTP handler with what a graceful shutdown
// needs: the SDK server behind it and the number of requests in flight.
type httpServing struct {
	handler  http.Handler
	server   *mcp.Server
	inFlight atomic.Int64
}

func (a *App) httpServing(opts ...ServeOption) *httpServing {
	cfg := newServeConfig(opts)
	server := a.NewServer(opts...)
	maxBody := cfg.maxBodyBytes
	if maxBody == 0 {
		maxBody = int64(a.cfg.limits.MaxBytes) + 64<<10 // the arguments plus the JSON-RPC envelope
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:           cfg.stateless,
		JSONResponse:        cfg.jsonResponse,
		Logger:              sdkLogger(a.cfg.logger),
		MaxRequestBodyBytes: maxBody,
	})
	hs := &httpServing{server: server}
	counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost { // a POST carries calls; a GET is a standing stream
			hs.inFlight.Add(1)
			defer hs.inFlight.Add(-1)
		}
		h.ServeHTTP(w, r)
	})
	hs.handler = guard(counted, &cfg)
	return hs
}

// Stateless makes HTTPHandler serve every request on its own, without
// sessions: any replica can answer any request. Server-to-client requests
// (sampling, elicitation) are then unavailable.
func Stateless() ServeOption { return func(c *serveConfig) { c.stateless = true } }

// JSONResponse makes HTTPHandler answer with application/json instead of an
// event stream when a request needs only its response.
func JSONResponse() ServeOption { return func(c *serveConfig) { c.jsonResponse = true } }

// MaxBodyBytes bounds an HTTP request's body (default: the app's argument
// limit plus 64 KiB). Larger bodies get 413.
func MaxBodyBytes(n int64) ServeOption { return func(c *serveConfig) { c.maxBodyBytes = n } }

// AllowedOrigins lists the browser origins (scheme://host[:port]) allowed
// to call the HTTP handler. A request with an Origin header not listed gets
// 403. Without the option, cross-origin browser requests are refused and
// same-origin and non-browser ones are allowed.
func AllowedOrigins(origins ...string) ServeOption {
	return func(c *serveConfig) { c.allowedOrigins = addToSet(c.allowedOrigins, origins) }
}

// AllowedHosts lists the Host header values (host or host:port) the HTTP
// handler answers to; any other gets 403, which blocks DNS rebinding. The
// go-sdk already refuses non-loopback Hosts on loopback listeners; this
// extends the check to public listeners.
func AllowedHosts(hosts ...string) ServeOption {
	return func(c *serveConfig) { c.allowedHosts = addToSet(c.allowedHosts, hosts) }
}

// guard checks Host and Origin before the SDK sees a request.
func guard(next http.Handler, cfg *serveConfig) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(cfg.allowedHosts) > 0 && !cfg.allowedHosts[r.Host] && !cfg.allowedHosts[hostOnly(r.Host)] {
			http.Error(w, "Forbidden: host "+truncate(r.Host, 64)+" is not allowed", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r, cfg) {
			http.Error(w, "Forbidden: origin "+truncate(origin, 64)+" is not allowed", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func originAllowed(origin string, r *http.Request, cfg *serveConfig) bool {
	if len(cfg.allowedOrigins) > 0 {
		return cfg.allowedOrigins[origin]
	}
	// Same origin: the Origin's host is the request's Host.
	_, host, ok := strings.Cut(origin, "://")
	return ok && host == r.Host
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}
