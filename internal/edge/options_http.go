package edge

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/guard"
)

// Stateless is vurb.WithStateless; see its documentation there.
func Stateless() ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithStateless"); c.stateless = true }
}

// JSONResponse is vurb.WithJSONResponse; see its documentation there.
func JSONResponse() ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithJSONResponse"); c.jsonResponse = true }
}

// MaxBodyBytes is vurb.WithMaxBodyBytes; see its documentation there.
func MaxBodyBytes(n int64) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithMaxBodyBytes"); c.maxBodyBytes = n }
}

// AllowedOrigins is vurb.WithAllowedOrigins; see its documentation there.
func AllowedOrigins(origins ...string) ServeOption {
	return func(c *serveConfig) {
		c.httpSetting("WithAllowedOrigins")
		c.allowedOrigins = addToSet(c.allowedOrigins, origins)
	}
}

// AllowedHosts is vurb.WithAllowedHosts; see its documentation there.
func AllowedHosts(hosts ...string) ServeOption {
	return func(c *serveConfig) {
		c.httpSetting("WithAllowedHosts")
		c.allowedHosts = addToSet(c.allowedHosts, hosts)
	}
}

// HTTPOptions is vurb.WithHTTPOptions; see its documentation there.
func HTTPOptions(opts *mcp.StreamableHTTPOptions) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithHTTPOptions"); c.sdkHTTP = opts }
}

// FastLane is vurb.WithFastLane; see its documentation there.
func FastLane(enabled bool) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithFastLane"); c.noLane = !enabled }
}

// DefaultShutdownGrace is how long ListenAndServe lets in-flight calls run
// after its context is cancelled (vurb.WithShutdownGrace).
const DefaultShutdownGrace = 10 * time.Second

// ShutdownGrace is vurb.WithShutdownGrace; see its documentation there.
func ShutdownGrace(d time.Duration) ServeOption {
	return func(c *serveConfig) { c.httpSetting("WithShutdownGrace"); c.shutdownGrace = d }
}

// TrustedProxies is vurb.WithTrustedProxies; see its documentation there.
func TrustedProxies(proxies ...string) ServeOption {
	set := make([]netip.Prefix, 0, len(proxies))
	for _, p := range proxies {
		prefix, err := guard.ParseProxy(p)
		if err != nil {
			panic(fmt.Sprintf("vurb: WithTrustedProxies(%q): %v; give an address (10.0.0.5) or a network in CIDR form (10.0.0.0/8)", p, err))
		}
		set = append(set, prefix)
	}
	return func(c *serveConfig) {
		c.httpSetting("WithTrustedProxies")
		c.trustedProxies = append(c.trustedProxies, set...)
	}
}
