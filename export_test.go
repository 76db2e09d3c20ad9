package vurb

import (
	"context"
	"net"
)

// ServeListener exposes serveListener to the tests, which need a port
// chosen by the system.
func (a *App) ServeListener(ctx context.Context, ln net.Listener, opts ...ServeOption) error {
	return a.serveListener(ctx, ln, opts...)
}
