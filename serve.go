package vurb

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewServer returns a go-sdk server with everything the app declares: its
// tools (through opts' tag filters), prompts, resources, completions and
// resource subscriptions. Use it to run the server on a transport of your
// own; Serve and HTTPHandler use it too. It panics when opts hold an HTTP
// setting (Stateless, AllowedHosts, ...), which a bare server cannot honour:
// pass those to HTTPHandler or ListenAndServe.
func (a *App) NewServer(opts ...ServeOption) *mcp.Server {
	cfg := newServeConfig(opts)
	cfg.mustNotNeedHTTP("NewServer")
	return a.newServer(&cfg)
}

// newServer is NewServer once the options are read.
func (a *App) newServer(cfg *serveConfig) *mcp.Server {
	p := a.built()
	var so mcp.ServerOptions
	if a.cfg.serverOpts != nil {
		so = *a.cfg.serverOpts
	}
	so.Instructions = a.cfg.instructions
	so.Logger = sdkLogger(a.cfg.logger)
	so.CompletionHandler = a.complete
	subs := newSubscriptions(a)
	so.SubscribeHandler, so.UnsubscribeHandler = subs.subscribe, subs.unsubscribe
	so.HasTools = len(p.Tools()) > 0
	so.HasPrompts = len(a.prompts) > 0
	so.HasResources = len(a.resources) > 0
	so.SetCacheable = a.setCacheable(so.SetCacheable)
	so.Capabilities = a.skillCapabilities(so.Capabilities) // skill_serve.go
	if cfg.keepAlive != 0 {
		so.KeepAlive = max(cfg.keepAlive, 0)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: a.cfg.name, Version: a.cfg.version}, &so)
	subs.server = server
	server.AddReceivingMiddleware(shortEchoes(p.Runtime()))
	vs := a.views(cfg)
	if vs != nil {
		server.AddReceivingMiddleware(vs.listMiddleware)
	}
	a.serveSkills(server, p.Runtime(), so.SetCacheable) // inside the request middleware, as tools are
	server.AddReceivingMiddleware(a.cfg.requestMW...)
	server.AddSendingMiddleware(newNotifier(a.cfg.notifyBuffer, a.cfg.logger).middleware)
	a.attach(server, cfg, vs)
	for _, pr := range a.prompts {
		pr.register(server, p.Runtime())
	}
	for _, r := range a.resources {
		r.register(server, p.Runtime())
	}
	// Last, so outermost: no handler's panic gets past it.
	server.AddReceivingMiddleware(containPanics(p.Runtime(), a.cfg.logger))
	a.servers.add(server)
	return server
}

// Serve runs the app on transport (Stdio() for desktop clients) until the
// client disconnects or ctx is cancelled; a cancelled ctx is a clean stop
// and returns nil. Like NewServer, it panics on HTTP settings in opts.
func (a *App) Serve(ctx context.Context, transport mcp.Transport, opts ...ServeOption) error {
	cfg := newServeConfig(opts)
	cfg.mustNotNeedHTTP("Serve")
	server := a.newServer(&cfg)
	defer a.servers.remove(server)
	err := server.Run(ctx, transport)
	if ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err())) {
		return nil
	}
	return err
}
