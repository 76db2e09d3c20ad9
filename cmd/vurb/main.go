// Command vurb inspects, calls and pins any MCP server, vurb's or not,
// over stdio (a command line) or streamable HTTP (a URL).
//
//	vurb inspect <server>                     tools, prompts, resources, token counts
//	vurb call <server> <tool> [k=v | k:=json | JSON]
//	vurb manifest <server> [-o file]          the canonical manifest
//	vurb lock <server> [-o file] [-check file] one digest per tool, action, prompt, resource
//	vurb diff <old> <new>                     classified changes; exit 1 on a breaking one
//
// A server is one argument: a URL (http://127.0.0.1:8080/mcp), a command
// line split as a shell would ("./server -flag", "go run ./cmd/server"),
// or, where a manifest will do (inspect, diff, lock), a manifest file.
//
// Exit status: 0 when all is well; 1 when the answer is no (a breaking
// change, a lockfile that drifted, a tool call that failed); 2 for a
// mistake in the command line; 3 when the server could not be reached or
// understood.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
)

// Exit statuses.
const (
	exitOK      = 0
	exitNo      = 1
	exitUsage   = 2
	exitTrouble = 3
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
	{"call", "<server> <tool> [key=value | key:=json | JSON]", "call one tool and print its result", call},
	{"manifest", "<server>", "write the canonical manifest", writeManifest},
	{"lock", "<server>", "write the lockfile, or check it with -check", lock},
	{"diff", "<old> <new>", "classify the changes; exit 1 on a breaking one", diff},
}

// env is what a command works with.
type env struct {
	out, errOut io.Writer
	opts        options
	progress    *progress
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
			e.progress = newProgress(errOut, e.opts.progress())
			ctx, cancel := context.WithTimeout(ctx, e.opts.timeout)
			err = c.run(ctx, e, pos)
			cancel()
		}
		return report(errOut, c, err)
	}
	fmt.Fprintf(errOut, "vurb: unknown command %q\n\n", args[0])
	usage(errOut)
	return exitUsage
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
}

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

// report prints err and returns the exit status it calls for.
func report(w io.Writer, c command, err error) int {
	var ue usageError
	var no noError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &no):
		if no.msg != "" {
			fmt.Fprintf(w, "vurb %s: %s\n", c.name, no.msg)
		}
		return exitNo
	case errors.As(err, &ue):
		fmt.Fprintf(w, "vurb %s: %s\nusage: vurb %s %s (vurb %s -h for flags)\n", c.name, ue.msg, c.name, c.args, c.name)
		return exitUsage
	case errors.Is(err, errHelp):
		return exitOK
	}
	fmt.Fprintf(w, "vurb %s: %v\n", c.name, err)
	return exitTrouble
}
