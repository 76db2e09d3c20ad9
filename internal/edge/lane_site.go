package edge

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/lane"
	"github.com/vurb-go/vurb/internal/engine"
)

// newLane returns the fast lane over the routes a server exposes (see
// lane.New), with the app's per-caller views when it has them.
func newLane(sdk http.Handler, rt *engine.Runtime, routes []engine.Route, impl *mcp.Implementation, ho *mcp.StreamableHTTPOptions, userCacheable bool,
	mw []mcp.Middleware, vs *Views) *lane.Lane {
	var v lane.Viewer
	if vs != nil { // an interface holding a nil *Views is not nil
		v = vs
	}
	return lane.New(sdk, rt, routes, impl, ho, userCacheable, mw, v)
}
