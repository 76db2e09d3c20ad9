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

// TestDefaultMessagesCopiesEveryText: untouched, the variables give back
// exactly the built-in texts, so none of Messages' fields was forgotten.
func TestDefaultMessagesCopiesEveryText(t *testing.T) {
	is := is.New(t)
	is.True(reflect.DeepEqual(DefaultMessages(), impl.DefaultMessages()))
}

// TestDefaultMessagesIsASnapshot: changing a variable affects the Messages
// made afterwards, not those made before, nor a Decode given nil Messages.
func TestDefaultMessagesIsASnapshot(t *testing.T) {
	is := is.New(t)
	oldRequired, oldEmail := MsgRequired, RuleMessages["email"]
	t.Cleanup(func() { MsgRequired, RuleMessages["email"] = oldRequired, oldEmail })

	before := DefaultMessages()
	MsgRequired = "est obligatoire"
	RuleMessages["email"] = "doit être une adresse"
	after := DefaultMessages()

	c := For[probeInput]()
	var in probeInput
	decode := func(m *Messages) string {
		return c.Decode([]byte(`{"email":"x"}`), &in, DecodeOptions{Messages: m}).Error()
	}
	is.Equal(decode(after), "workspace_id: est obligatoire; email: doit être une adresse")
	is.Equal(decode(before), "workspace_id: is required; email: must be a valid email address")
	is.Equal(decode(nil), "workspace_id: is required; email: must be a valid email address")

	after.Rules["email"] = "changed" // the snapshot owns its Rules
	is.Equal(RuleMessages["email"], "doit être une adresse")
}

// TestLegacyVariablesDoNotRace writes the variables while calls decode with
// their own Messages, or none: a call never reads them (run with -race).
func TestLegacyVariablesDoNotRace(t *testing.T) {
	oldRequired, oldEmail, oldMax := MsgRequired, RuleMessages["email"], MaxIssues
	t.Cleanup(func() { MsgRequired, RuleMessages["email"], MaxIssues = oldRequired, oldEmail, oldMax })

	own := DefaultMessages()
	own.Required = "own"
	c := For[probeInput]()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			MsgRequired = []string{"a", "b"}[i%2]
			RuleMessages["email"] = MsgRequired
			MaxIssues = i%5 + 1
		}
	}()
	var calls sync.WaitGroup
	for g := 0; g < 4; g++ {
		calls.Add(1)
		go func() {
			defer calls.Done()
			for range 200 {
				var in probeInput
				if got := c.Decode([]byte(`{"email":"x"}`), &in, DecodeOptions{Messages: own}).Error(); got != "workspace_id: own; email: must be a valid email address" {
					t.Errorf("own Messages: got %q", got)
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
	close(stop)
	wg.Wait()
}
