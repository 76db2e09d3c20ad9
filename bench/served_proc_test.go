package bench

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// servedProc is one running server process. For HTTP, MCP is at
// http://addr/mcp; for stdio, stdio is its one client, already
// initialised. Either way its totals are at http://statsAddr/stats.
type servedProc struct {
	contender, transport string
	addr, statsAddr      string
	stdio                *stdioClient

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	log    *tailLog
	exited chan struct{}
	err    error
}

// startServed starts contender on transport, waits for its address, and
// for stdio does the initialize handshake. extra are more flags for the
// server (-cpuprofile).
func startServed(tb testing.TB, contender, transport string, extra ...string) (*servedProc, error) {
	bin, as := servedBinary(tb), contender
	if contender == "vurb-base" {
		bin, as = servedBase(), "vurb"
	}
	args := append([]string{"-contender", as, "-transport", transport}, extra...)
	cmd := exec.Command(bin, args...)
	p := &servedProc{contender: contender, transport: transport, cmd: cmd, log: new(tailLog), exited: make(chan struct{})}
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	// The address comes first on stdout (HTTP) or stderr (stdio, whose
	// stdout is MCP); everything else on those streams is kept for errors.
	ready := make(chan string, 1)
	var drains sync.WaitGroup
	drain := func(r io.Reader, announces bool) {
		defer drains.Done()
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if announces {
				ready <- sc.Text()
				announces = false
				continue
			}
			p.log.add(sc.Text())
		}
	}
	if transport == "stdio" {
		drains.Add(1)
		go drain(stderr, true)
		p.stdio = newStdioClient(p.stdin, stdout)
	} else {
		drains.Add(2)
		go drain(stdout, true)
		go drain(stderr, false)
	}
	go func() { drains.Wait(); p.err = cmd.Wait(); close(p.exited) }()

	select {
	case addr := <-ready:
		if !strings.HasPrefix(addr, "127.0.0.1:") {
			p.close()
			return nil, fmt.Errorf("%s %s: %q is not an address\n%s", contender, transport, addr, p.log)
		}
		p.statsAddr = addr
		if transport != "stdio" {
			p.addr = addr
		}
	case <-p.exited:
		return nil, fmt.Errorf("%s %s exited before serving: %v\n%s", contender, transport, p.err, p.log)
	case <-time.After(10 * time.Second):
		p.close()
		return nil, fmt.Errorf("%s %s: no address after 10 s\n%s", contender, transport, p.log)
	}
	if p.stdio != nil {
		if err := p.stdio.handshake(); err != nil {
			p.close()
			return nil, fmt.Errorf("%s stdio handshake: %v\n%s", contender, err, p.log)
		}
	}
	return p, nil
}

// close ends the server by closing its standard input, as a desktop client
// does, and kills it if it has not exited within 5 s.
func (p *servedProc) close() error {
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-p.exited
		return fmt.Errorf("%s %s did not stop; killed", p.contender, p.transport)
	}
	return p.err
}

// dial opens n load-generating clients: for HTTP, n keep-alive
// connections, each with its own session when stateful; for stdio, the
// process's one client.
func (p *servedProc) dial(n int) ([]caller, error) {
	if p.stdio != nil {
		if n != 1 {
			return nil, fmt.Errorf("stdio has one client, not %d", n)
		}
		return []caller{p.stdio}, nil
	}
	callers := make([]caller, 0, n)
	for range n {
		c, err := dialHTTP(p.addr, p.transport)
		if err != nil {
			closeCallers(callers)
			return nil, fmt.Errorf("%s %s: %v\n%s", p.contender, p.transport, err, p.log)
		}
		callers = append(callers, c)
	}
	return callers, nil
}

// tailLog keeps the last lines a server wrote, for error messages.
type tailLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *tailLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.lines) == 50 {
		l.lines = l.lines[1:]
	}
	l.lines = append(l.lines, line)
}

func (l *tailLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}
