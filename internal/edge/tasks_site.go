package edge

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/internal/edge/fault"
	"github.com/vurb-go/vurb/internal/edge/tasks"
	"github.com/vurb-go/vurb/internal/edge/wire"
	"github.com/vurb-go/vurb/internal/engine"
)

// taskFront returns the front of the app's tasks over the routes a
// handler serves, or nil when none of them runs as a task.
func (a *Site) taskFront(routes []engine.Route, vs *Views, ho *mcp.StreamableHTTPOptions) *tasks.TaskFront {
	d := tasks.FrontDeps{Table: a.Tasks, Routes: routes, Runtime: a.Plan.Runtime(), Logger: a.Logger, Health: &a.store,
		CrossOrigin: ho.CrossOriginProtection}
	if vs != nil { // an interface holding a nil *Views is not nil
		d.Views = vs
	}
	if h := a.replicaHub(); h != nil {
		d.Hub = h
	}
	d.Encoder, _ = wire.NewEncoder(&mcp.Implementation{Name: a.Name, Version: a.Version}, ho.JSONResponse) // strings only: it cannot fail
	if len(a.RequestMW) > 0 {
		d.Middleware = append([]mcp.Middleware{fault.Contain(d.Runtime)}, a.RequestMW...)
	}
	return tasks.NewTaskFront(d)
}

// ErrNoTask is tasks.ErrNoTask under the name the root's API gives it
// (vurb.ErrNoTask = edge.ErrNoTask, pinned in api/vurb.txt).
var ErrNoTask = tasks.ErrNoTask
