// Command vurb inspects, calls and pins any MCP server, vurb's or not,
// over stdio (a command line) or streamable HTTP (a URL).
//
//	vurb inspect <server>                     tools, prompts, resources, token counts
//	vurb call <server> <tool> [k=v | k:=json | JSON]
//	vurb manifest <server> [-o file]          the canonical manifest
//	vurb lock <server> [-o file] [-check file] one digest per tool, action, prompt, resource
//	vurb diff <old> <new>                     classified changes; exit 1 on a breaking one
//	vurb keygen                               a new key for vurb.WithRequestStateKeys
//
// A server is one argument: a URL (http://127.0.0.1:8080/mcp), a command
// line split as a shell would ("./server -flag", "go run ./cmd/server"),
// or, where a manifest will do (inspect, diff, lock), a manifest file.
//
// A server is not trusted: vurb shows its text with control characters
// escaped (never run by the terminal), sends -H headers only to the
// origin they were given for, stops reading a server past -max-bytes
// (16MiB) and a listing past -max-pages or -max-items, and gives up on
// the whole command at -timeout.
//
// vurb call prints one document, for a person or for jq: the tool's
// structured content, pretty-printed, when it returns some, else its text
// (-json prints the whole result). Its key=value arguments are read by the
// tool's input schema: limit=2 sends the number 2 to an integer field,
// id=007 the string "007" to a string field; key:=json is JSON whatever
// the schema says.
//
// Exit status:
//
//	0  all is well
//	1  the answer is no: a breaking change, a lockfile that drifted, a
//	   tool call that failed (its result has isError set)
//	2  a mistake in the command line
//	3  the server could not be reached or understood: it did not start,
//	   the connection failed or broke, it asked for credentials, it sent
//	   more than the bounds allow, -timeout ran out
//	4  the server answered, and refused the request itself with a
//	   protocol error: an unknown tool, arguments it could not read
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/vurb-go/vurb/manifest"
)

// Exit statuses.
const (
	exitOK      = 0
	exitNo      = 1
	exitUsage   = 2
	exitTrouble = 3
	exitRefused = 4
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// command is one subcommand: it writes its answer to out, and returns an
// error (a usageError, a noError or any other) to set the exit status.
type command struct {
	name, args, summary string
	run                 func(ctx context.Context, env *env, args []string) error
}

var commands = []command{
	{"inspect", "<server>", "list the tools, prompts and resources, with token counts", inspect},
	{"call", "<server> <tool> [key=value | key:=json | JSON]",
		"call one tool; print its structured content, else its text (key=value typed by the tool's input schema)", call},
	{"manifest", "<server>", "write the canonical manifest", writeManifest},
	{"lock", "<server>", "write the lockfile, or check it with -check", lock},
	{"diff", "<old> <new>", "classify the changes; exit 1 on a breaking one", diff},
	{"keygen", "", "print a new request-state key for WithRequestStateKeys (32 random bytes, hex)", keygen},
}

// env is what a command works with.
type env struct {
	out, errOut io.Writer
	opts        options
	progress    *progress

	mu     sync.Mutex
	orphan []func() // what to stop if the command is given up on
}

// onGiveUp registers f to run if the command is given up on at its
// timeout: killing a server process that would outlive vurb.
func (e *env) onGiveUp(f func()) {
	e.mu.Lock()
	e.orphan = append(e.orphan, f)
	e.mu.Unlock()
}

func run(ctx context.Context, args []string, out, errOut io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(out)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		e := &env{out: out, errOut: errOut}
		pos, err := e.opts.parse(c, args[1:], errOut)
		if err == nil {
			err = e.runWithin(ctx, c, pos)
		}
		return report(errOut, c, err)
	}
	fmt.Fprintf(errOut, "vurb: unknown command %q\n\n", args[0])
	usage(errOut)
	return exitUsage
}

// giveUpAfter is how long a command has to return once its time is up,
// before it is given up on.
const giveUpAfter = time.Second

// timedOut is the cause of a command's context when -timeout is up.
type timedOut struct{ d time.Duration }

// Error says which flag gave up.
func (t timedOut) Error() string { return fmt.Sprintf("gave up after %v (-timeout)", t.d) }

// runWithin runs c with -timeout bounding the whole command. Each step
// watches its context; one that does not return in time (the go-sdk
// closing a session, counting the tokens of one huge text) is given up on
// a second later: its output is dropped, the server processes it started
// are killed, and the command reports the timeout.
func (e *env) runWithin(ctx context.Context, c command, pos []string) error {
	out, errOut := &gate{w: e.out}, &gate{w: e.errOut}
	e.out, e.errOut = out, errOut
	e.progress = newProgress(errOut, e.opts.progress())
	ctx, cancel := context.WithTimeoutCause(ctx, e.opts.timeout, timedOut{e.opts.timeout})
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.run(ctx, e, pos) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		select {
		case err = <-done:
		case <-time.After(giveUpAfter):
			out.close()
			errOut.close()
			e.mu.Lock()
			for _, f := range e.orphan {
				f()
			}
			e.mu.Unlock()
			return context.Cause(ctx)
		}
	}
	var t timedOut
	if cause := context.Cause(ctx); err != nil && errors.As(cause, &t) && !errors.As(err, &t) {
		err = fmt.Errorf("%w: %w", t, err)
	}
	return err
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "vurb inspects, calls and pins any MCP server.")
	fmt.Fprintln(w, "\nUsage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  vurb %s %s\n      %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprintln(w, "\nA server is a URL (http://127.0.0.1:8080/mcp), a command line in one argument")
	fmt.Fprintln(w, "(\"./server -flag\"), or for inspect, lock and diff a manifest file.")
	fmt.Fprintln(w, "Run vurb <command> -h for its flags.")
	fmt.Fprint(w, "\n"+exitStatuses)
}

// exitStatuses is the exit statuses, as usage and every command's -h
// print them.
const exitStatuses = `Exit status:
  0  all is well
  1  the answer is no: a breaking change, a drifted lockfile, a tool result with isError
  2  a mistake in the command line
  3  the server could not be reached or understood (it did not start, the connection
     failed or broke, it wants credentials, it sent too much, -timeout ran out)
  4  the server answered, and refused the request: an unknown tool, arguments it
     could not read (a JSON-RPC error)
`

// usageError is a mistake in the command line.
type usageError struct{ msg string }

// Error returns the message.
func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// noError is a "no" the command has already printed: breaking changes, a
// drifted lockfile, a failed tool call.
type noError struct{ msg string }

// Error returns the message.
func (e noError) Error() string { return e.msg }

// refusedError is a request the server answered with a JSON-RPC error:
// it was reached and understood, and said no to the request itself (an
// unknown tool, arguments it could not read). It unwraps to the
// *jsonrpc.Error.
type refusedError struct {
	msg string
	err *jsonrpc.Error
}

// Error returns the message.
func (e refusedError) Error() string { return e.msg }

// Unwrap returns the server's error.
func (e refusedError) Unwrap() error { return e.err }

// refused says that the server refused request when err is the server's
// JSON-RPC error, and that request failed on any other err (a
// transport's).
func refused(request string, err error) error {
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) {
		return fmt.Errorf("%s: %w", request, err)
	}
	return refusedError{fmt.Sprintf("the server refused %s: %s (JSON-RPC error %d)", request, rpc.Message, rpc.Code), rpc}
}

// report prints err and returns the exit status it calls for.
func report(w io.Writer, c command, err error) int {
	var ue usageError
	var no noError
	var rpc *jsonrpc.Error
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &no):
		if no.msg != "" {
			fmt.Fprintf(w, "vurb %s: %s\n", c.name, manifest.VisibleLines(no.msg))
		}
		return exitNo
	case errors.As(err, &ue):
		fmt.Fprintf(w, "vurb %s: %s\nusage: vurb %s %s (vurb %s -h for flags)\n", c.name, manifest.VisibleLines(ue.msg), c.name, c.args, c.name)
		return exitUsage
	case errors.Is(err, errHelp):
		return exitOK
	case errors.As(err, &rpc) && !errors.As(err, new(timedOut)):
		fmt.Fprintf(w, "vurb %s: %s\n", c.name, manifest.VisibleLines(err.Error()))
		return exitRefused
	}
	// The message may hold a server's text: an error it answered, the end
	// of its standard error.
	fmt.Fprintf(w, "vurb %s: %s\n", c.name, manifest.VisibleLines(err.Error()))
	return exitTrouble
}
