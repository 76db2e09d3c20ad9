package main

import (
	"context"
	"fmt"
	"os"

	"github.com/vurb-go/vurb/manifest"
)

// writeManifest writes a server's manifest to standard output or -o.
func writeManifest(ctx context.Context, e *env, args []string) error {
	if len(args) != 1 {
		return usagef("manifest takes one server, got %d arguments", len(args))
	}
	snap, err := load(ctx, e, args[0])
	if err != nil {
		return err
	}
	data, err := snap.manifest.Marshal()
	if err != nil {
		return err
	}
	return e.write(data)
}

// lock writes a server's lockfile, or with -check compares it with a
// pinned one and exits 1 when anything drifted.
func lock(ctx context.Context, e *env, args []string) error {
	if len(args) != 1 {
		return usagef("lock takes one server, got %d arguments", len(args))
	}
	var pinned manifest.Lock
	if e.opts.check != "" {
		data, err := os.ReadFile(e.opts.check)
		if err != nil {
			return err
		}
		if pinned, err = manifest.ParseLock(data); err != nil {
			return fmt.Errorf("%s: %w", e.opts.check, err)
		}
	}
	snap, err := load(ctx, e, args[0])
	if err != nil {
		return err
	}
	current := manifest.LockOf(snap.manifest)
	if e.opts.check == "" {
		data, err := current.Marshal()
		if err != nil {
			return err
		}
		return e.write(data)
	}
	drift := manifest.Check(pinned, current)
	if e.opts.json {
		if err := writeJSON(e.out, map[string]any{"drift": nonNil(drift)}); err != nil {
			return err
		}
	} else {
		for _, d := range drift {
			fmt.Fprintln(e.out, d)
		}
	}
	if len(drift) > 0 {
		return noError{fmt.Sprintf("%s differ from %s; vurb diff classifies the changes", plural(len(drift), "entry"), e.opts.check)}
	}
	if !e.opts.json {
		fmt.Fprintf(e.out, "%s matches the server\n", e.opts.check)
	}
	return nil
}

// write writes data to -o or standard output.
func (e *env) write(data []byte) error {
	if e.opts.output == "" {
		_, err := e.out.Write(data)
		return err
	}
	if err := os.WriteFile(e.opts.output, data, 0o644); err != nil {
		return err
	}
	e.progress.step("wrote %s", e.opts.output)
	return nil
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
