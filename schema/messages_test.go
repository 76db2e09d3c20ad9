package schema

import (
	"reflect"
	"sync"
	"testing"

	"github.com/matryer/is"
	impl "github.com/vurb-go/vurb/internal/schema"
)

type probeInput struct {
	WorkspaceID string `json:"workspace_id" validate:"required"`
	Email       string `json:"email,omitempty" validate:"omitempty,email"`
}

// TestDefaultMessagesAreTheBuiltInTexts: DefaultMessages holds exactly the
// texts a Decode given nil Messages uses, and MaxIssues is
// DefaultMaxIssues.
func TestDefaultMessagesAreTheBuiltInTexts(t *testing.T) {
	is := is.New(t)
	is.True(reflect.DeepEqual(DefaultMessages(), impl.DefaultMessages()))
	is.Equal(DefaultMessages().MaxIssues, DefaultMaxIssues)
}

// TestDefaultMessagesIsACopy: each DefaultMessages is the caller's own,
// Rules included; changing one changes neither another nor a Decode given
// nil Messages.
func TestDefaultMessagesIsACopy(t *testing.T) {
	is := is.New(t)
	mine := DefaultMessages()
	mine.Required = "est obligatoire"
	mine.Rules["email"] = "doit être une adresse"
	other := DefaultMessages()

	c := For[probeInput]()
	var in probeInput
	decode := func(m *Messages) string {
		return c.Decode([]byte(`{"email":"x"}`), &in, DecodeOptions{Messages: m}).Error()
	}
	is.Equal(decode(mine), "workspace_id: est obligatoire; email: doit être une adresse")
	is.Equal(decode(other), "workspace_id: is required; email: must be a valid email address")
	is.Equal(decode(nil), "workspace_id: is required; email: must be a valid email address")
}

// TestMessagesApartDoNotRace: calls that decode at once, each with its own
// Messages or none, read only their own texts (run with -race).
func TestMessagesApartDoNotRace(t *testing.T) {
	c := For[probeInput]()
	var calls sync.WaitGroup
	for g := range 4 {
		calls.Add(1)
		go func() {
			defer calls.Done()
			own := DefaultMessages()
			own.Required = []string{"a", "b", "c", "d"}[g]
			want := "workspace_id: " + own.Required + "; email: must be a valid email address"
			for range 200 {
				var in probeInput
				if got := c.Decode([]byte(`{"email":"x"}`), &in, DecodeOptions{Messages: own}).Error(); got != want {
					t.Errorf("own Messages: got %q, want %q", got, want)
					return
				}
				if got := c.Decode([]byte(`{}`), &in, DecodeOptions{}).Error(); got != "workspace_id: is required" {
					t.Errorf("nil Messages: got %q", got)
					return
				}
			}
		}()
	}
	calls.Wait()
}
