package redisstate_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// TestToolSearchAcrossReplicas: three replicas with tool search on one
// redis-server, a request landing on any of them. Search needs nothing
// shared; a call through call_tool is the call it carries wherever it
// lands: on a session opened on another replica, and as a task started on
// one replica and read on another.
func TestToolSearchAcrossReplicas(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	f := attackFleet(t, rs, "searched", 3, []vurb.Option{vurb.WithToolSearch()})

	s := open(t, f.urls[0], "alice-token")
	for i, url := range f.urls {
		a := send(t, http.MethodPost, url, "alice-token", s, "2025-11-25",
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"read the docs"}}}`)
		is.True(a.works())
		is.True(strings.Contains(string(a.result), `"name":"docs_read"`)) // every replica finds it
		a = send(t, http.MethodPost, url, "alice-token", s, "2025-11-25",
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"docs_wipe","arguments":{}}}}`)
		is.True(a.works())
		is.Equal(f.wipes.Load(), int32(i+1))
	}

	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	a := send(t, http.MethodPost, f.urls[1], "alice-token", "", "2026-07-28",
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"jobs_run","arguments":{}},`+meta+`}}`)
	is.True(a.works())
	var started struct {
		ResultType string
		TaskID     string `json:"taskId"`
	}
	is.NoErr(json.Unmarshal(a.result, &started))
	is.Equal(started.ResultType, "task") // the carried call ran as the task jobs_run is
	deadline := time.Now().Add(10 * time.Second)
	for {
		a = send(t, http.MethodPost, f.urls[2], "alice-token", "", "2026-07-28",
			`{"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"taskId":"`+started.TaskID+`",`+meta+`}}`)
		if strings.Contains(string(a.result), `"completed"`) || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	is.True(strings.Contains(string(a.result), `"completed"`)) // read on another replica
	is.Equal(f.runs.Load(), int32(1))
}
