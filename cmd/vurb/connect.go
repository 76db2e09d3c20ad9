package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/vurb-go/vurb/servercard"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// supportedRevisions are the MCP revisions the go-sdk this vurb is built
// with speaks (v1.8.0), newest first.
var supportedRevisions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// version is the client version vurb announces: its module version when
// installed with go install, "devel" otherwise.
var version = sync.OnceValue(func() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
})

// session is a connected MCP client session and what closing it needs.
type session struct {
	*mcp.ClientSession
	// budget is what the server may still send; errors read through
	// explain say when it ran out.
	budget *budget
	// credentials explains an error of a server that asked for
	// credentials; nil over stdio.
	credentials func(error) error
	close       func()
	// card reads the server card beside the endpoint (card.go); nil over
	// stdio.
	card func(context.Context) (*servercard.Card, error)
}

// explain returns err, or what caused it when vurb knows better than the
// go-sdk: the server sent more than -max-bytes, or it asked for
// credentials.
func (s *session) explain(err error) error {
	err = s.budget.explain(err)
	if s.credentials != nil {
		err = s.credentials(err)
	}
	return err
}

// connect starts or reaches the server and initializes a session. Its
// errors say what went wrong in terms a user can act on: the command does
// not exist, the process exited (with the end of what it wrote to
// stderr), the URL is not an MCP endpoint, it wants credentials (and -H
// gives them), the server speaks a revision this vurb does not, the
// server sent more than -max-bytes.
func connect(ctx context.Context, e *env, src source, opts *mcp.ClientOptions) (*session, error) {
	if opts == nil {
		opts = &mcp.ClientOptions{}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "vurb", Version: version()}, opts)
	addSkillMethods(client) // skills.go
	var so *mcp.ClientSessionOptions
	if e.opts.protocol != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: e.opts.protocol}
	}
	b := &budget{max: int64(e.opts.maxBytes)}
	switch src.kind {
	case urlSource:
		e.progress.step("connecting to %s", src)
		ch := &challenges{}
		credentials := func(err error) error { return ch.explain(err, src.raw, e.opts.headers) }
		hc, err := httpClient(src.raw, e.opts.headers, e.opts.dpopKey, b, ch)
		if err != nil {
			return nil, err
		}
		transport := &mcp.StreamableClientTransport{Endpoint: src.raw, HTTPClient: hc, MaxEventSize: int(min(b.max, 1<<40))}
		cs, err := client.Connect(ctx, transport, so)
		if err != nil {
			if err := credentials(err); errors.As(err, new(credentialsError)) {
				return nil, err
			}
			return nil, explain(ctx, b.explain(err), fmt.Sprintf("%s did not answer as an MCP server (streamable HTTP)", src), "", false)
		}
		e.progress.step("connected: %s", describeServer(cs))
		return &session{ClientSession: cs, budget: b, credentials: credentials, close: func() { _ = cs.Close() },
			card: func(ctx context.Context) (*servercard.Card, error) { return readCard(ctx, hc, src.raw) }}, nil
	case commandSource:
		if e.opts.dpopKey != "" {
			return nil, usagef("-dpop-key signs proofs for a URL server; %s is a command", src)
		}
		e.progress.step("starting %s", strings.Join(src.words, " "))
		if _, err := exec.LookPath(src.words[0]); err != nil {
			return nil, fmt.Errorf("cannot start the server %q: %w", src.words[0], err)
		}
		tail := &tailWriter{max: 4096}
		var stderr io.Writer = tail
		if e.opts.verbose {
			stderr = io.MultiWriter(tail, &visibleWriter{w: e.errOut})
		}
		p, transport, err := startStdio(src.words, stderr, b)
		if err != nil {
			return nil, fmt.Errorf("cannot start the server %q: %w", src.words[0], err)
		}
		e.onGiveUp(func() { _ = p.cmd.Process.Kill() })
		cs, err := client.Connect(ctx, transport, so)
		if err != nil {
			p.stop() // and so all it wrote to stderr is in the tail
			return nil, explain(ctx, b.explain(err), fmt.Sprintf("the server %q did not start an MCP session on stdio", src), tail.String(), true)
		}
		e.progress.step("connected: %s", describeServer(cs))
		return &session{ClientSession: cs, budget: b, close: func() {
			_ = cs.Close()
			p.stop()
		}}, nil
	}
	return nil, fmt.Errorf("%s is a manifest, not a server", src)
}

// explain turns a connection error into one line a user can act on.
func explain(ctx context.Context, err error, what, stderr string, stdio bool) error {
	msg := err.Error()
	var b strings.Builder
	switch {
	case errors.As(err, new(tooMuch)):
		fmt.Fprintf(&b, "%s: %v", what, err)
	case strings.Contains(msg, "unsupported protocol version"):
		rev := strings.TrimSpace(strings.TrimPrefix(msg[strings.Index(msg, "unsupported protocol version"):], "unsupported protocol version:"))
		fmt.Fprintf(&b, "the server speaks MCP revision %s, which this vurb does not: it speaks %s",
			rev, strings.Join(supportedRevisions, ", "))
	case stdio && (strings.Contains(msg, "EOF") || strings.Contains(msg, "connection closed")):
		fmt.Fprintf(&b, "%s: it exited or closed its output before answering initialize (%v)", what, err)
	case ctx.Err() != nil:
		fmt.Fprintf(&b, "%s in time (%v): %v", what, context.Cause(ctx), err)
	default:
		fmt.Fprintf(&b, "%s: %v", what, err)
	}
	if s := strings.TrimSpace(stderr); s != "" {
		fmt.Fprintf(&b, "\nits standard error ended with:\n%s", indent(s))
	}
	return errors.New(b.String())
}

func describeServer(cs *mcp.ClientSession) string {
	r := cs.InitializeResult()
	if r == nil {
		return "?"
	}
	name := "?"
	if r.ServerInfo != nil {
		name = strings.TrimSpace(r.ServerInfo.Name + " " + r.ServerInfo.Version)
	}
	return fmt.Sprintf("%s, MCP %s", name, r.ProtocolVersion)
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n")
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write keeps the end of p.
func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

// String returns what was kept.
func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
