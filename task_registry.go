package vurb

import (
	"context"
	"runtime"
	"sync"
	"weak"

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

// taskTables holds each app's task table, keyed weakly by the app (as
// serverSet keeps servers) so that the tasks feature stays in its own files
// and an app that is dropped takes its table with it. Apps never share a
// table.
var taskTables sync.Map // weak.Pointer[App] -> *taskTable

// tasks returns the app's task table, making it when create is set, or nil.
func (a *App) tasks(create bool) *taskTable {
	key := weak.Make(a)
	if t, ok := taskTables.Load(key); ok {
		return t.(*taskTable)
	}
	if !create {
		return nil
	}
	t, loaded := taskTables.LoadOrStore(key, &taskTable{actions: map[string]taskSpec{}, running: &runningTasks{m: map[string]context.CancelFunc{}}})
	if !loaded {
		runtime.AddCleanup(a, func(k weak.Pointer[App]) { taskTables.Delete(k) }, key)
	}
	return t.(*taskTable)
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
