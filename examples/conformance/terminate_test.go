package main

import (
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/internal/redisserver"
)

// TestReplicaTerminatedOrKilledLeavesNoTaskWorking starts a task on one
// replica of three (sent to it directly), then ends that replica as an
// operator or a crash would, and polls the task through HAProxy, which
// sends the polls to the survivors:
//
//   - SIGTERM: the replica drains (app.Shutdown): it leaves the pool, its
//     running task gets the grace to finish, and the survivors read it
//     completed;
//   - SIGKILL: nothing records the task's end, and the survivors read it
//     failed, saying its replica stopped, once its lease is over (the
//     example's -task-lease), never "working" until its TTL.
func TestReplicaTerminatedOrKilledLeavesNoTaskWorking(t *testing.T) {
	if testing.Short() {
		t.Skip("starts redis-server, three replicas and HAProxy")
	}
	haproxyBin := needBinary(t, "haproxy")
	for _, c := range []struct {
		name   string
		sig    syscall.Signal
		status string
	}{
		{"SIGTERM", syscall.SIGTERM, "completed"},
		{"SIGKILL", syscall.SIGKILL, "failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			redis := redisserver.Start(t)
			cl := startCluster(t, redis.Addr, haproxyBin, 3)
			resp := rpcAt(t, "http://"+cl.addrs[0]+"/mcp", "tools/call", "slow_compute",
				`"name":"slow_compute","arguments":{"seconds":2,"label":"`+c.name+`"}`)
			res, ok := resp["result"].(map[string]any)
			is.True(ok)
			is.Equal(res["resultType"], "task")
			id := res["taskId"].(string)
			is.NoErr(cl.replicas[0].Process.Signal(c.sig))
			deadline := time.Now().Add(20 * time.Second)
			for {
				task, ok := cl.rpc(t, "tasks/get", id, `"taskId":"`+id+`"`)["result"].(map[string]any)
				if !ok {
					t.Fatalf("tasks/get %s after %s: not found", id, c.name)
				}
				if task["status"] != "working" {
					is.Equal(task["status"], c.status)
					t.Logf("%s: %v: %v", c.name, task["status"], task["statusMessage"])
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("task %s still working 20 s after %s", id, c.name)
				}
				time.Sleep(200 * time.Millisecond)
			}
			if c.sig == syscall.SIGTERM {
				done := make(chan error, 1)
				go func() { done <- cl.replicas[0].Wait() }()
				select {
				case <-done: // drained and exited
				case <-time.After(15 * time.Second):
					t.Fatal("the terminated replica never exited")
				}
			}
		})
	}
}
