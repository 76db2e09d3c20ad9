package main

import (
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// process is a server vurb started to speak to over stdio, as
// mcp.CommandTransport runs one, except that what vurb reads of its
// standard output counts against the budget: CommandTransport reads the
// pipe itself, and offers no way to bound it.
type process struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	// done is closed when the process has exited and all it wrote to
	// standard error has been copied.
	done chan struct{}
}

// terminateAfter is how long stop waits for the server after closing its
// input, and again after SIGTERM, before it kills it.
const terminateAfter = 2 * time.Second

// startStdio starts words, its standard error copied to stderr, and
// returns the transport to it. Its standard output is a pipe vurb owns
// (not exec's StdoutPipe, which Wait closes): the process is awaited from
// the start, and done says at once that it exited.
func startStdio(words []string, stderr io.Writer, b *budget) (*process, mcp.Transport, error) {
	cmd := exec.Command(words[0], words[1:]...)
	cmd.Stderr = stderr
	// A child the server left behind may hold its standard error open:
	// Wait gives up on copying it this long after the server exited.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	out, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		out.Close()
		w.Close()
		return nil, nil, err
	}
	w.Close() // the child holds its copy: reads end when it exits
	p := &process{cmd: cmd, stdin: stdin, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	t := &mcp.IOTransport{
		Reader:        readCloser{b.reader(out), out},
		Writer:        stdin,
		MaxLineLength: int(min(b.max, 1<<40)),
	}
	return p, t, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// stop ends the server as the MCP spec asks a client to: it closes its
// input, waits, sends SIGTERM, waits, and kills it. It returns once the
// process is gone and its standard error copied.
func (p *process) stop() {
	_ = p.stdin.Close()
	if p.wait(terminateAfter) {
		return
	}
	if p.cmd.Process.Signal(syscall.SIGTERM) == nil && p.wait(terminateAfter) {
		return
	}
	_ = p.cmd.Process.Kill()
	<-p.done
}

// wait reports whether the process exited within d.
func (p *process) wait(d time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(d):
		return false
	}
}
