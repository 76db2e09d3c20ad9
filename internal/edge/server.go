package edge

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/fault"
)

// NewServer is vurb.NewServer; see its documentation there.
func (a *Site) NewServer(opts ...ServeOption) *mcp.Server {
	cfg := newServeConfig(opts)
	cfg.mustNotNeedHTTP("NewServer")
	cfg.mustNotStateLocal("NewServer")
	return a.newServer(&cfg, a.views(&cfg))
}

// newServer is NewServer once the options are read.
func (a *Site) newServer(cfg *serveConfig, vs *Views) *mcp.Server {
	p := a.Plan
	var so mcp.ServerOptions
	if a.ServerOptions != nil {
		so = *a.ServerOptions
	}
	so.Instructions = a.Instructions
	so.Logger = sdkLogger(a.Logger)
	so.CompletionHandler = a.complete
	subs := newSubscriptions(a)
	so.SubscribeHandler, so.UnsubscribeHandler = subs.subscribe, subs.unsubscribe
	so.HasTools = len(p.Tools()) > 0
	so.HasPrompts = len(a.Prompts) > 0
	so.HasResources = len(a.Resources) > 0
	so.SetCacheable = a.setCacheable(so.SetCacheable)
	if a.Capabilities != nil {
		so.Capabilities = a.Capabilities(so.Capabilities) // skills
	}
	if cfg.keepAlive != 0 {
		so.KeepAlive = max(cfg.keepAlive, 0)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: a.Name, Version: a.Version}, &so)
	subs.server = server
	server.AddReceivingMiddleware(shortEchoes(p))
	for _, mw := range []mcp.Middleware{listMiddleware(vs), searchListing(p, vs)} {
		if mw != nil {
			server.AddReceivingMiddleware(mw)
		}
	}
	if a.Extend != nil {
		a.Extend(server, p.Runtime(), so.SetCacheable) // skills: inside the request middleware, as tools are
	}
	server.AddReceivingMiddleware(a.RequestMW...)
	server.AddSendingMiddleware(newNotifier(a.NotifyBuffer, p.Runtime()).middleware)
	if p.SessionFlows() {
		server.AddSendingMiddleware(toolsChangedNotice) // flow_notice.go: outside the notifier, which queues what it sends
		a.noticed.add(server)
	}
	a.attach(server, cfg, vs)
	if a.Register != nil {
		a.Register(server, p.Runtime()) // prompts and resources
	}
	if mw := carriedCalls(p); mw != nil {
		server.AddReceivingMiddleware(mw) // outside the app's: they see the call that runs
	}
	// Last, so outermost: no handler's panic gets past it.
	server.AddReceivingMiddleware(fault.Contain(p.Runtime()))
	a.servers.add(server)
	return server
}

// Serve is vurb.Serve; see its documentation there.
func (a *Site) Serve(ctx context.Context, transport mcp.Transport, opts ...ServeOption) error {
	cfg := newServeConfig(opts)
	cfg.mustNotNeedHTTP("Serve")
	server := a.newServer(&cfg, a.views(&cfg))
	defer a.servers.remove(server)
	if cfg.localToken != nil {
		transport = localTransport{transport, cfg.localToken}
	}
	err := server.Run(ctx, transport)
	if ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err())) {
		return nil
	}
	return err
}
