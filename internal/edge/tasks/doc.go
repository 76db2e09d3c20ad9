// Package tasks serves the MCP tasks extension over HTTP for sessionless
// (2026-07-28) requests: the front that picks tools/call of a task route
// and tasks/get, tasks/update and tasks/cancel (TaskFront), the runs of
// the tasks and their leases, their records in a store.Tasks, their ids
// and the errors a client reads. It stands apart from the edge, which
// builds it (NewTaskFront) and stacks it before the fast lane; what it
// needs of the rest of the edge (the per-caller views, the store's
// health, the replicas' bus) it names as interfaces of its own (seams.go),
// so it never imports the edge.
package tasks
