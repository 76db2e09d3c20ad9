package main

import (
	"context"
	"fmt"

	"github.com/vurb-go/vurb/manifest"
)

// diff compares two servers or manifests and prints every change,
// classified; it exits 1 when one of them breaks clients, so a CI step can
// hold the release back.
func diff(ctx context.Context, e *env, args []string) error {
	if len(args) != 2 {
		return usagef("diff takes two servers or manifests, old then new; got %d arguments", len(args))
	}
	old, err := load(ctx, e, args[0])
	if err != nil {
		return fmt.Errorf("old: %w", err)
	}
	new, err := load(ctx, e, args[1])
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	changes := manifest.Diff(old.manifest, new.manifest)
	breaking := 0
	for _, c := range changes {
		if c.Breaking {
			breaking++
		}
	}
	if e.opts.json {
		if err := writeJSON(e.out, map[string]any{"changes": nonNil(changes), "breaking": breaking > 0}); err != nil {
			return err
		}
	} else {
		for _, c := range changes {
			fmt.Fprintln(e.out, c)
		}
		fmt.Fprintf(e.out, "%s: %d breaking, %d compatible\n", plural(len(changes), "change"), breaking, len(changes)-breaking)
	}
	if breaking > 0 {
		return noError{plural(breaking, "breaking change")}
	}
	return nil
}
