package redisstate_test

import (
	"testing"

	"github.com/vurb-go/vurb/internal/storetest"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/store"
)

// TestWorkflowStoreKeepsTheContract: replicas, each with its own Redis
// client, on one redis-server.
func TestWorkflowStoreKeepsTheContract(t *testing.T) {
	storetest.Workflows(t, store.DefaultMaxInstances, func(t *testing.T, n int) []store.Workflows {
		rs := startRedis(t)
		out := make([]store.Workflows, n)
		for i := range out {
			out[i] = redisstate.New(rs.client(t)).App("shop").Workflows()
		}
		return out
	})
}
