package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// TestMain removes the server binary the served benchmarks built.
func TestMain(m *testing.M) {
	code := m.Run()
	if servedBuild.dir != "" {
		os.RemoveAll(servedBuild.dir)
	}
	os.Exit(code)
}

// servedBuild is internal/servedserver, built once per test binary with
// the go command that runs the tests (go test puts its GOROOT/bin first in
// PATH), so it builds against the same vurb and peers as the tests.
var servedBuild struct {
	once      sync.Once
	dir, path string
	err       error
}

func servedBinary(tb testing.TB) string {
	tb.Helper()
	servedBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "vurb-served-")
		if err != nil {
			servedBuild.err = err
			return
		}
		servedBuild.dir = dir
		servedBuild.path = filepath.Join(dir, "servedserver")
		out, err := exec.Command("go", "build", "-o", servedBuild.path, "./internal/servedserver").CombinedOutput()
		if err != nil {
			servedBuild.err = fmt.Errorf("go build ./internal/servedserver: %v\n%s", err, out)
		}
	})
	if servedBuild.err != nil {
		tb.Fatal(servedBuild.err)
	}
	return servedBuild.path
}
