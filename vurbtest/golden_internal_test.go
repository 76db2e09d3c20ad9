package vurbtest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPackagePath: the hint to rewrite a golden file, VURBTEST_UPDATE=1
// go test -run '^TestX$', said [no test files] when run from the module
// root.
// It names the package now, found from the directory go test ran the test
// in.
func TestPackagePath(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "internal", "server")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(gomod string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(gomod), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		gomod, dir, want string
	}{
		{"module example.com/app\n\ngo 1.26\n", pkg, "example.com/app/internal/server"},
		{"module example.com/app\n", root, "example.com/app"},
		{"// the app\nmodule   example.com/app // a comment\n", pkg, "example.com/app/internal/server"},
		{"module \"example.com/app\"\r\n", pkg, "example.com/app/internal/server"},
		{"modules example.com/app\n", pkg, ""}, // no module directive
		{"go 1.26\n", pkg, ""},
	} {
		write(tc.gomod)
		if got := packagePath(tc.dir); got != tc.want {
			t.Errorf("go.mod %q, dir %s: got %q, want %q", tc.gomod, tc.dir, got, tc.want)
		}
	}
	if got := packagePath(""); got != "" {
		t.Errorf("no directory: got %q", got)
	}
	if got := packagePath(startDir); got != "github.com/vurb-go/vurb/vurbtest" {
		t.Errorf("this package: got %q", got)
	}
}
