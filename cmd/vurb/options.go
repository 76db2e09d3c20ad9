package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// options are the flags every command reads (each uses the ones it needs).
type options struct {
	json      bool
	quiet     bool
	forceProg bool
	verbose   bool
	timeout   time.Duration
	protocol  string
	headers   headerFlags
	dpopKey   string // -dpop-key: the PEM file of the key a DPoP-bound token is bound to
	output    string
	check     string
	// The bounds on what a server may send (see limits.go).
	maxBytes byteSize
	maxPages int
	maxItems int
}

var errHelp = errors.New("help shown")

// headerFlags collects -H "Name: value".
type headerFlags []string

// String lists the headers (flag.Value).
func (h *headerFlags) String() string { return strings.Join(*h, ", ") }

// Set adds one header (flag.Value).
func (h *headerFlags) Set(v string) error {
	if !strings.Contains(v, ":") {
		return fmt.Errorf("%q is not \"Name: value\"", v)
	}
	*h = append(*h, v)
	return nil
}

// parse reads c's flags wherever they stand among its arguments and
// returns the positional arguments. After "--" nothing is a flag.
func (o *options) parse(c command, args []string, errOut io.Writer) ([]string, error) {
	fs := flag.NewFlagSet("vurb "+c.name, flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.Usage = func() {
		fmt.Fprintf(errOut, "usage: vurb %s %s\n  %s\n\nflags:\n", c.name, c.args, c.summary)
		fs.PrintDefaults()
		fmt.Fprint(errOut, "\n"+exitStatuses)
	}
	fs.BoolVar(&o.json, "json", false, "print JSON for scripts instead of text")
	fs.BoolVar(&o.quiet, "q", false, "print no progress")
	fs.BoolVar(&o.forceProg, "progress", false, "print progress even when stderr is not a terminal")
	fs.BoolVar(&o.verbose, "v", false, "pass the server's stderr through")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "give up after this long, whatever the command is doing")
	o.maxBytes = defaultMaxBytes
	fs.Var(&o.maxBytes, "max-bytes", "give up when a server has sent more than this, in all (16MiB, 512KiB, ...)")
	fs.IntVar(&o.maxPages, "max-pages", defaultMaxPages, "give up when a list (tools, prompts, ...) takes more pages than this")
	fs.IntVar(&o.maxItems, "max-items", defaultMaxItems, "give up when a list holds more items than this")
	fs.StringVar(&o.protocol, "protocol", "", "the MCP revision to ask for (default: the newest, falling back as the server answers)")
	fs.Var(&o.headers, "H", "an HTTP header for a URL server, \"Name: value\" (repeatable)")
	fs.StringVar(&o.dpopKey, "dpop-key", "", "a PEM private key (EC, Ed25519 or RSA) to sign a DPoP proof with on each request, for the token given with -H \"Authorization: DPoP <token>\"")
	switch c.name {
	case "manifest", "lock":
		fs.StringVar(&o.output, "o", "", "write to this file instead of standard output")
	}
	if c.name == "lock" {
		fs.StringVar(&o.check, "check", "", "compare with this pinned lockfile instead of writing one; exit 1 if it drifted")
	}
	pos, err := o.positional(fs, args)
	if err == nil && (o.maxPages <= 0 || o.maxItems <= 0 || o.timeout <= 0) {
		err = usageError{"-timeout, -max-pages and -max-items must be positive"}
	}
	return pos, err
}

// positional parses args with fs, flags and positional arguments mixed.
func (o *options) positional(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// progress reports whether progress lines go to stderr: asked for, or
// stderr is a terminal and -q was not given.
func (o *options) progress() bool {
	if o.quiet {
		return false
	}
	if o.forceProg {
		return true
	}
	fi, err := os.Stderr.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
