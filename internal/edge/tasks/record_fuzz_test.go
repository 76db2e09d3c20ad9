package tasks

import (
	"encoding/json"
	"testing"

	"github.com/vurb-go/vurb/store"
)

// A task record read back from a shared store is anybody's who can write
// to it: a replica decodes it, copies it and answers tasks/get from it
// without panicking, and what it answers is JSON.
func FuzzStoredTaskRecord(f *testing.F) {
	f.Add([]byte(`{"id":"t","owner":"alice","status":"completed","createdAt":"2026-11-28T07:00:00Z","updatedAt":"2026-11-28T07:00:01Z","ttl":60000000000,"result":{"content":[]}}`))
	f.Add([]byte(`{"id":"t","status":"input_required","inputRequests":{"a":{"method":"elicitation/create"}},"answers":{"b":1}}`))
	f.Add([]byte(`{"id":"t","status":"failed","error":{"code":-32603,"message":"x"},"ttl":-1,"pollInterval":9223372036854775807}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rec store.Task
		if json.Unmarshal(data, &rec) != nil {
			return
		}
		c := rec.Clone()
		_ = c.Expires()
		for _, answer := range []func(*store.Task, json.RawMessage) ([]byte, error){detailedTask, createTaskResult} {
			out, err := answer(c, json.RawMessage(`{"k":1}`))
			if err == nil && !json.Valid(out) {
				t.Fatalf("answered with what is not JSON: %s", out)
			}
		}
	})
}
