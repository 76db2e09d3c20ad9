package store_test

import (
	"testing"

	"github.com/vurb-go/vurb/internal/storetest"
	"github.com/vurb-go/vurb/store"
)

// TestMemoryWorkflowsKeepTheContract: one process, whose replicas are the
// store itself.
func TestMemoryWorkflowsKeepTheContract(t *testing.T) {
	storetest.Workflows(t, 64, func(t *testing.T, n int) []store.Workflows {
		s := store.NewMemoryWorkflows(64)
		out := make([]store.Workflows, n)
		for i := range out {
			out[i] = s
		}
		return out
	})
}
