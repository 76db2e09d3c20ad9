package vurbtest_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

// Search is the input of the logging tool.
type Search struct {
	Query string `json:"query"`
}

// loggingApp is an app whose tool logs through vurb.Logger(ctx), and
// whose other tool panics (vurb logs the panic).
func loggingApp(logger *slog.Logger) *vurb.App {
	app := vurb.New(vurb.WithLogger(logger))
	vurb.Query(app, "docs.search", func(ctx context.Context, in Search) (string, error) {
		vurb.Logger(ctx).Info("searching", "query", in.Query)
		vurb.Logger(ctx).Debug("cache miss")
		return "found", nil
	})
	vurb.Query(app, "docs.crash", func(context.Context, noInput) (string, error) {
		panic("the index is gone")
	})
	return app
}

// outputT records what is written to its output, and runs its cleanups
// when told.
type outputT struct {
	testing.TB
	mu       sync.Mutex
	out      bytes.Buffer
	cleanups []func()
}

func (o *outputT) Output() io.Writer { return o }

func (o *outputT) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.out.Write(p)
}

func (o *outputT) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.out.String()
}

func (o *outputT) Cleanup(f func()) { o.cleanups = append(o.cleanups, f) }

func (o *outputT) end() {
	for i := len(o.cleanups) - 1; i >= 0; i-- {
		o.cleanups[i]()
	}
}

// TestLogger: vurbtest had no way to send an app's log lines to the test;
// they went to slog.Default, mixed with every other test's output. Logger
// writes them to the test's output, at every level, one line a record,
// and drops what comes once the test is done.
func TestLogger(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	rec := &outputT{TB: t}
	c := vurbtest.New(t, loggingApp(vurbtest.Logger(rec)))
	is.Equal(c.CallText("docs_search", Search{Query: "go"}), "found")
	is.Equal(rec.String(), "level=INFO msg=searching request_id=1 tool=docs action=search query=go\n"+
		"level=DEBUG msg=\"cache miss\" request_id=1 tool=docs action=search\n")
	c.CallError("docs_crash", nil)
	is.True(strings.Contains(rec.String(), `panic="the index is gone"`)) // the panic, logged where the test reads it
	rec.end()
	before := rec.String()
	c.CallText("docs_search", Search{Query: "late"}) // after the test: dropped, where t.Log panics
	is.Equal(rec.String(), before)
}

// TestLoggerInTheTestOutput runs TestLoggerChild as go test does, in a
// process of its own: the app's lines show in the output of the failing
// (sub)test that made them, indented as its t.Log lines are.
func TestLoggerInTheTestOutput(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("the child's own run")
	}
	is := is.New(t)
	cmd := exec.Command(os.Args[0], "-test.run", "^TestLoggerChild$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	is.True(err != nil) // the child fails, on purpose
	got := string(out)
	is.True(strings.Contains(got, "=== RUN   TestLoggerChild/search\n"+
		"    level=INFO msg=searching request_id=1 tool=docs action=search query=child\n"+
		"    level=DEBUG msg=\"cache miss\" request_id=1 tool=docs action=search\n"+
		"    logger_test.go:")) // got
	is.True(strings.Contains(got, "--- FAIL: TestLoggerChild/search "))
}

// childEnv makes TestLoggerChild run.
const childEnv = "VURBTEST_LOGGER_CHILD"

func TestLoggerChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by TestLoggerInTheTestOutput")
	}
	t.Run("search", func(t *testing.T) {
		c := vurbtest.New(t, loggingApp(vurbtest.Logger(t)))
		c.CallText("docs_search", Search{Query: "child"})
		t.Error("failing, so that go test shows the lines")
	})
}
