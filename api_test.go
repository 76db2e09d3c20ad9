package vurb_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vurb-go/vurb/internal/apisurface"
)

// apiUpdate is the environment variable that rewrites the API's golden
// files from the code: VURB_API_UPDATE=1 go test -run TestPublicAPIIsTheReviewedOne .
const apiUpdate = "VURB_API_UPDATE"

// maxRootNames bounds the root package's exported top-level names, which
// a newcomer reads in go doc: at most 150, and it changes only by a
// reviewed edit, as the API files do.
const maxRootNames = 150

// The public API of every package of the repository (nested modules'
// included) is the one api/ holds: a change to the surface is a reviewed
// edit of those files, made with VURB_API_UPDATE=1, never a side effect.
func TestPublicAPIIsTheReviewedOne(t *testing.T) {
	if maxRootNames > 150 {
		t.Fatalf("maxRootNames is %d: the root exports at most 150 names", maxRootNames)
	}
	dirs := publicPackages(t)
	update := os.Getenv(apiUpdate) == "1"
	want := map[string]bool{}
	for _, dir := range dirs {
		s, err := apisurface.Of(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if dir == "." && s.Names > maxRootNames {
			t.Errorf("the root package exports %d top-level names; at most %d", s.Names, maxRootNames)
		}
		golden := filepath.Join("api", apiFile(dir))
		want[golden] = true
		if update {
			if err := os.MkdirAll("api", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(s.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		held, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s has no golden API (%v): review it, then run %s=1 go test -run TestPublicAPIIsTheReviewedOne .", dir, err, apiUpdate)
			continue
		}
		if got := s.String(); got != string(held) {
			t.Errorf("the public API of %s changed:\n%s\nIf that is meant, run %s=1 go test -run TestPublicAPIIsTheReviewedOne . and commit %s",
				dir, lineDiff(string(held), got), apiUpdate, golden)
		}
	}
	files, _ := filepath.Glob(filepath.Join("api", "*.txt"))
	for _, f := range files {
		if !want[f] {
			if update {
				_ = os.Remove(f)
				continue
			}
			t.Errorf("%s describes a package that no longer exists: delete it", f)
		}
	}
}

// publicPackages lists the directories of the repository's importable
// packages: not internal, not commands, examples, benchmarks or test data.
func publicPackages(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
			slices.Contains([]string{"internal", "examples", "bench", "testdata", "cmd", "api", "scripts", "docs", "node_modules"}, name)) {
			return filepath.SkipDir
		}
		goFiles, _ := filepath.Glob(filepath.Join(path, "*.go"))
		for _, f := range goFiles {
			if !strings.HasSuffix(f, "_test.go") {
				dirs = append(dirs, path)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// apiFile names the golden file of the package in dir.
func apiFile(dir string) string {
	if dir == "." {
		return "vurb.txt"
	}
	return strings.ReplaceAll(filepath.ToSlash(dir), "/", "_") + ".txt"
}

// lineDiff lists the lines only one of a and b has.
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ina, inb := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !inb[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ina[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
