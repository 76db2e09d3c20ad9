// Command servedserver serves the bench tool, docs_search, with one
// contender (vurb, the go-sdk's raw AddTool, mcp-go) over one transport
// (stateful or stateless streamable HTTP, stdio), in a process of its own,
// so that the bench package's served benchmarks measure the server's CPU
// and allocations apart from the load generator's.
//
// With -transport http-stateful or http-stateless it listens on
// 127.0.0.1:0, serves MCP at /mcp and its totals at /stats (outside the
// MCP path), and prints the chosen address on stdout. With -transport
// stdio it speaks MCP on stdin and stdout, and serves /stats on a
// loopback listener of its own whose address it prints on stderr.
//
// With -redis redis://HOST:PORT the vurb contenders keep their
// handshake-era sessions in that Redis and share a request-state key with
// every process started with the same URL: several such processes behind
// a balancer are replicas of one server (TestServedReplicas).
//
// It stops by itself: when its standard input reaches end of file (its
// parent closed it or died), on SIGINT or SIGTERM, or after -max-life.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"
)

func main() {
	name := flag.String("contender", "vurb", "vurb, gosdk-raw or mcp-go")
	transport := flag.String("transport", "http-stateless", "http-stateful, http-stateless or stdio")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	memProfile := flag.String("memprofile", "", "write an allocation profile to this file at exit")
	maxLife := flag.Duration("max-life", 30*time.Minute, "exit after this long whatever happens")
	redisURL := flag.String("redis", "", "vurb contenders: keep sessions in the Redis at redis://HOST:PORT, shared with the other replicas")
	flag.Parse()
	if *redisURL != "" {
		if err := useRedis(*name, *redisURL); err != nil {
			fmt.Fprintln(os.Stderr, "servedserver:", err)
			os.Exit(1)
		}
	}
	if err := run(*name, *transport, *cpuProfile, *memProfile, *maxLife); err != nil {
		fmt.Fprintln(os.Stderr, "servedserver:", err)
		os.Exit(1)
	}
}

func run(name, transport, cpuProfile, memProfile string, maxLife time.Duration) error {
	c, ok := contenders[name]
	if !ok {
		return fmt.Errorf("unknown contender %q", name)
	}
	if memProfile != "" {
		defer writeHeapProfile(memProfile)
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, maxLife)
	defer cancel()

	switch transport {
	case "http-stateful", "http-stateless", "http-2026":
		// Standard input is not MCP here: its end is the parent's signal to stop.
		go func() { io.Copy(io.Discard, os.Stdin); cancel() }()
		h := c.http(transport == "http-stateless")
		if transport == "http-2026" {
			if c.sessionless == nil {
				return fmt.Errorf("%s does not serve revision 2026-07-28", name)
			}
			h = c.sessionless()
		}
		return serveHTTP(ctx, h, os.Stdout)
	case "stdio":
		statsLn, err := listen()
		if err != nil {
			return err
		}
		go http.Serve(statsLn, http.HandlerFunc(serveStats))
		fmt.Fprintln(os.Stderr, statsLn.Addr())
		err = c.stdio(ctx)
		if errors.Is(err, io.EOF) || ctx.Err() != nil {
			return nil
		}
		return err
	}
	return fmt.Errorf("unknown transport %q", transport)
}

// serveHTTP serves mcp at /mcp and the totals at /stats on a loopback port,
// announces the address on out, and shuts down when ctx ends.
func serveHTTP(ctx context.Context, mcp http.Handler, out io.Writer) error {
	ln, err := listen()
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp)
	mux.HandleFunc("GET /stats", serveStats)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintln(out, ln.Addr())
	go func() {
		<-ctx.Done()
		shutCtx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(shutCtx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// writeHeapProfile writes the allocations sampled since the start (read
// them with go tool pprof -sample_index=alloc_space).
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "servedserver:", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		fmt.Fprintln(os.Stderr, "servedserver:", err)
	}
}

// listen takes a free port on the loopback interface: the load generator
// and the server never leave the machine.
func listen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }
