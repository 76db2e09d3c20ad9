package vurbtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vurb-go/vurb"
)

// UpdateEnv is the environment variable that, set to a true value (1,
// true), makes Golden and GoldenFile rewrite golden files instead of
// comparing them: VURBTEST_UPDATE=1 go test ./... rewrites every one in
// the module. The package registers no -update flag: a flag registered at
// import time is process-wide state that any other package could clash
// with, and go test ./... refuses it in the packages that do not import
// vurbtest.
const UpdateEnv = "VURBTEST_UPDATE"

// Update reports whether golden files are to be rewritten: UpdateEnv is set
// to a true value. Use it for your own golden files, so one switch
// rewrites them all.
func Update() bool {
	on, _ := strconv.ParseBool(os.Getenv(UpdateEnv))
	return on
}

// Golden compares the tools/list a client of app receives, all pages, in
// the server's order, each tool exactly as the server wrote it (its key
// order kept), indented by two spaces, with the file at path. The app's
// exposition (flat or grouped) is the one listed; opts choose the rest
// (Serve for tag filters, Identity, Protocol) as for New. The listing
// always runs over the in-memory transport, where the server encodes
// tools/list as it does over HTTP; OverHTTP is refused.
//
// When the contents differ, it fails the test with a line diff (-want
// +got) and the command that accepts the change, which names the test's
// package so that it runs from anywhere in the module:
// VURBTEST_UPDATE=1 go test example.com/app/server -run '^TestTools$'.
// Under Update it writes the file instead (creating its directory), and
// the test passes.
func Golden(t testing.TB, path string, app *vurb.App, opts ...Option) {
	t.Helper()
	if newConfig(opts).http {
		t.Fatalf("vurbtest: Golden lists tools over the in-memory transport; drop OverHTTP from its options")
	}
	c := New(t, app, append(opts, withTap())...)
	compareGolden(t, path, c.toolsJSON(), "tools/list")
}

// toolsJSON is every tool of every tools/list page, as the server wrote
// them, in {"tools": [...]}, indented.
func (c *Client) toolsJSON() []byte {
	c.t.Helper()
	c.Tools()
	var list bytes.Buffer
	list.WriteString(`{"tools":[`)
	n := 0
	for _, result := range c.tap.results() {
		var page struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(result, &page); err != nil {
			c.t.Fatalf("vurbtest: tools/list result: %v", err)
		}
		for _, tool := range page.Tools {
			if n > 0 {
				list.WriteByte(',')
			}
			list.Write(tool)
			n++
		}
	}
	list.WriteString(`]}`)
	var out bytes.Buffer
	if err := json.Indent(&out, list.Bytes(), "", "  "); err != nil {
		c.t.Fatalf("vurbtest: tools/list result: %v", err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// GoldenFile compares got with the file at path, as Golden does for
// tools/list: on a difference it fails the test with a line diff (-want
// +got) and the command that accepts the change; under Update it writes
// got to path instead. Use it for your own golden files (a manifest, a
// rendered description), so that one switch, UpdateEnv, rewrites them all.
func GoldenFile(t testing.TB, path string, got []byte) {
	t.Helper()
	compareGolden(t, path, got, "the output")
}

// compareGolden compares got, named what, with the file at path, or
// writes it there under Update.
func compareGolden(t testing.TB, path string, got []byte, what string) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("vurbtest: %v", err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("vurbtest: %v", err)
		}
		t.Logf("vurbtest: wrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("vurbtest: golden file %s does not exist; create it with: %s", path, updateCommand(t))
	}
	if err != nil {
		t.Fatalf("vurbtest: %v", err)
	}
	want = bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n")) // a checkout with CRLF line ends
	if !bytes.Equal(want, got) {
		diff := lineDiff(string(want), string(got))
		if diff == "" {
			diff = "(the lines are equal: only the file's final line end differs)\n"
		}
		t.Errorf("vurbtest: %s differs from %s (-want +got):\n%sIf the change is intended, accept it with: %s",
			what, path, diff, updateCommand(t))
	}
}

// updateCommand is the go test command that rewrites t's golden files,
// naming t's package: without it, the command run from the module root
// tested the root package, and said [no test files].
func updateCommand(t testing.TB) string {
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	cmd := UpdateEnv + "=1 go test "
	if pkg := packagePath(startDir); pkg != "" {
		cmd += pkg + " "
	}
	return cmd + "-run '" + strings.Join(parts, "/") + "'"
}

// startDir is the directory the test binary started in, which go test
// makes the package's own; read once, before a test can t.Chdir.
var startDir, _ = os.Getwd()

// packagePath is the import path of the package in dir, found as the go
// command would without running it: the module path the nearest go.mod
// above dir declares, joined with dir's place under it. It is "" when no
// go.mod declares one (a GOPATH build, a test binary run elsewhere).
func packagePath(dir string) string {
	if dir == "" {
		return ""
	}
	for root := dir; ; {
		if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
			module := modulePath(data)
			rel, err := filepath.Rel(root, dir)
			if module == "" || err != nil {
				return ""
			}
			return path.Join(module, filepath.ToSlash(rel))
		}
		parent := filepath.Dir(root)
		if parent == root {
			return ""
		}
		root = parent
	}
}

// modulePath is the path of go.mod's module directive, "" when it has
// none.
func modulePath(gomod []byte) string {
	for line := range strings.Lines(string(gomod)) {
		line, _, _ = strings.Cut(line, "//")
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module")
		if !ok || rest == "" || rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"' {
			continue
		}
		rest = strings.TrimSpace(rest)
		if unquoted, err := strconv.Unquote(rest); err == nil {
			return unquoted
		}
		return rest
	}
	return ""
}
