package vurb_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioChild starts the stdio test child serving the app called app and
// connects a go-sdk client to it, as a desktop client does.
func stdioChild(t *testing.T, app string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestStdioChild$")
	cmd.Env = append(os.Environ(), "VURB_STDIO_CHILD="+app)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "desktop", Version: "1"}, opts).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestWorkflowOverStdio: the gate of a handle-keyed workflow, its race,
// and a session-keyed one's list and list_changed, over stdio to a child
// process.
func TestWorkflowOverStdio(t *testing.T) {
	t.Parallel()
	t.Run("by handle", func(t *testing.T) {
		is := is.New(t)
		cs := stdioChild(t, "checkout", nil)
		h := startCart(t, cs)
		text, isErr := flowCall(t, cs, "cart_pay", map[string]any{"cart": h})
		is.True(isErr)
		is.True(strings.Contains(text, `is in state "cart"`))
		is.Equal(raceCheckout(t, cs, h), int32(1))
		text, isErr = flowCall(t, cs, "cart_pay", map[string]any{"cart": h})
		is.True(!isErr)
		is.Equal(text, "paid c_42")
	})
	t.Run("by session", func(t *testing.T) {
		is := is.New(t)
		changed := make(chan struct{}, 4)
		cs := stdioChild(t, "wizard", &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
		is.Equal(sortedNames(t, cs), []string{"help", "wizard_begin", "wizard_status"})
		_, isErr := flowCall(t, cs, "wizard_begin", map[string]any{})
		is.True(!isErr)
		select {
		case <-changed:
		case <-time.After(5 * time.Second):
			t.Fatal("no notifications/tools/list_changed over stdio")
		}
		is.Equal(sortedNames(t, cs), []string{"help", "wizard_finish", "wizard_status"})
	})
}
