package vurb

import (
	"context"
	"sync"

	"github.com/vurb-go/vurb/internal/engine"
)

// taskTable is what an app declared about tasks: which actions are tasks
// and how the app serves them.
type taskTable struct {
	mu      sync.Mutex
	actions map[string]taskSpec // by canonical key ("reports.build")
	config  TaskConfig
	running *runningTasks
}

// tasks returns the app's task table, making it when create is set, or nil.
// The table is the app's own (App.taskTab), made once under the app's
// lock: apps never share one, and no state outlives its app.
func (a *App) tasks(create bool) *taskTable {
	a.taskMu.Lock()
	defer a.taskMu.Unlock()
	if a.taskTab == nil && create {
		a.taskTab = &taskTable{actions: map[string]taskSpec{}, running: &runningTasks{m: map[string]context.CancelFunc{}}}
	}
	return a.taskTab
}

// taskRoutes returns, by wire name, the routes that run as tasks and how.
// A route reaching several actions (grouped exposition) runs as a task
// when all of them declared the same Task options.
func (t *taskTable) taskRoutes(routes []engine.Route) map[string]taskRoute {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]taskRoute{}
	for _, r := range routes {
		var spec taskSpec
		ok := true
		for i, ep := range r.Endpoints() {
			s, declared := t.actions[ep.Key()]
			if !declared || (i > 0 && s != spec) {
				ok = false
				break
			}
			spec = s
		}
		if ok && len(r.Endpoints()) > 0 {
			out[r.Wire().Name] = taskRoute{route: r, spec: spec}
		}
	}
	return out
}
