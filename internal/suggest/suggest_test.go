package suggest

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestClosest: a typo, a case change, a swap or a prefix finds the name;
// a stranger, or a name too long to compare, finds none.
func TestClosest(t *testing.T) {
	accepted := []string{"workspace_id", "limit", "query", "id"}
	tests := map[string]string{
		"limt": "limit", "lmiit": "limit", "LIMIT": "limit", "qurey": "query", "Workspace_ID": "workspace_id",
		"workspace": "workspace_id", "x": "", "zzzzz": "", "ID": "id", "idx": "id", strings.Repeat("a", 500): "",
	}
	for in, want := range tests {
		is.New(t).Equal(Closest(in, accepted), want)
	}
}
