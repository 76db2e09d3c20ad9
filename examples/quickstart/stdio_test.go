package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestStdioAnswersWhatItReadBeforeEOF runs the quickstart as a child
// process, writes a session's messages to its stdin and closes it, as
// `printf '…' | server` does: every request read is answered before it
// exits (the call's answer was dropped), and stderr says what it serves.
func TestStdioAnswersWhatItReadBeforeEOF(t *testing.T) {
	is := is.New(t)
	bin := filepath.Join(t.TempDir(), "quickstart")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"projects_create","arguments":{"name":"Apollo"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"projects_list","arguments":{}}}`,
	}, "\n") + "\n"
	for run := range 5 {
		cmd := exec.Command(bin)
		cmd.Stdin = strings.NewReader(in)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		done := make(chan error, 1)
		is.NoErr(cmd.Start())
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			is.NoErr(err)
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("run %d: the server did not exit at the end of its input", run)
		}
		out := stdout.String()
		is.True(strings.Contains(out, `"id":2`)) // the call answered before the exit
		is.True(strings.Contains(out, `"id":3`))
		is.True(strings.Contains(out, `Apollo`))
		is.True(strings.Contains(stderr.String(), "serving MCP over stdio"))
	}
}
