package edge

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
)

// taskFront returns the front of the app's tasks over the routes a
// handler serves, or nil when none of them runs as a task.
func (a *Site) taskFront(routes []engine.Route, vs *Views, ho *mcp.StreamableHTTPOptions) *taskFront {
	d := frontDeps{table: a.Tasks, routes: routes, rt: a.Plan.Runtime(), logger: a.Logger, health: &a.store,
		crossOrigin: ho.CrossOriginProtection}
	if vs != nil { // an interface holding a nil *Views is not nil
		d.views = vs
	}
	if h := a.replicaHub(); h != nil {
		d.hub = h
	}
	d.enc, _ = wire.NewEncoder(&mcp.Implementation{Name: a.Name, Version: a.Version}, ho.JSONResponse) // strings only: it cannot fail
	if len(a.RequestMW) > 0 {
		d.mw = append([]mcp.Middleware{fault.Contain(d.rt)}, a.RequestMW...)
	}
	return newTaskFront(d)
}
