package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/manifest"
)

// bin holds the binaries TestMain builds: vurb, the quickstart, and two
// releases of the contract example.
var bin string

func TestMain(m *testing.M) {
	if name := os.Getenv(serverEnv); name != "" {
		if err := helperServers[name](); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	flag.Parse()
	if testing.Short() {
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "vurb-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// One go build per binary: go build -o DIR/ would name examples/contract/v2
	// after "contract", as it does major-version directories.
	for name, pkg := range map[string]string{
		"vurb": "./cmd/vurb", "quickstart": "./examples/quickstart",
		"v1": "./examples/contract/v1", "v2": "./examples/contract/v2",
	} {
		build := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg)
		build.Dir = filepath.Join("..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", pkg, err, out)
			return 1
		}
	}
	bin = dir
	return m.Run()
}

// result is one run of the vurb binary.
type result struct {
	code           int
	stdout, stderr string
	// elapsed is the run's wall time, maxRSS its peak resident memory in
	// bytes (0 where the system does not say).
	elapsed time.Duration
	maxRSS  int64
}

// vurb runs the built binary with args (and -timeout 60s unless they set
// one); env adds environment variables (which a server it starts
// inherits).
func vurb(t *testing.T, env []string, args ...string) result {
	t.Helper()
	if bin == "" {
		t.Skip("the end-to-end tests build binaries; not in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if !slices.ContainsFunc(args, func(a string) bool { return strings.TrimLeft(a, "-") == "timeout" }) {
		args = append(args, "-timeout", "60s")
	}
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "vurb"), args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() {
		t.Logf("vurb %s: exit %d in %v\n%s", strings.Join(args, " "), code, elapsed.Round(time.Millisecond), errOut.String())
	}
	return result{code, out.String(), errOut.String(), elapsed, maxRSS(cmd.ProcessState)}
}

func path(name string) string { return filepath.Join(bin, name) }

// testSpeaksToServer runs inspect, call, manifest and lock against one
// quickstart server and returns its manifest.
func quickstartSession(t *testing.T, server string) []byte {
	is := is.New(t)

	r := vurb(t, nil, "inspect", server, "--progress")
	is.Equal(r.code, 0)
	is.True(strings.HasPrefix(r.stdout, "quickstart 1.0.0 · MCP "))
	is.True(strings.Contains(r.stdout, "tools/list: "))
	is.True(strings.Contains(r.stdout, " tokens (o200k_base)"))
	is.True(strings.Contains(r.stdout, "  projects_delete  [destructive]"))
	is.True(strings.Contains(r.stdout, "in:  name  string  3..40 chars  Project name"))
	is.True(strings.Contains(r.stderr, "] listing tools")) // progress

	r = vurb(t, nil, "inspect", "--json", server)
	is.Equal(r.code, 0)
	var rep inspection
	is.NoErr(json.Unmarshal([]byte(r.stdout), &rep))
	is.Equal(rep.Tokenizer, "o200k_base")
	is.Equal(len(rep.Tools), 3)
	is.True(rep.Tokens > 200)
	sum := 0
	for _, tool := range rep.Tools {
		is.True(tool.Tokens > 30)
		sum += tool.Tokens
	}
	is.True(rep.Tokens >= sum) // the list adds its own brackets

	r = vurb(t, nil, "call", server, "projects_create", "name=Apollo")
	is.Equal(r.code, 0)
	is.Equal(r.stdout, "{\n  \"id\": \"p1\",\n  \"name\": \"Apollo\"\n}\n")
	r = vurb(t, nil, "call", server, "projects_list", `{"limit": 10}`)
	is.Equal(r.code, 0)
	is.True(strings.HasPrefix(r.stdout, "{\n  \"projects\": [")) // structured content, pretty-printed
	r = vurb(t, nil, "call", server, "projects_create", "name=Go")
	is.Equal(r.code, 1) // the tool refused: isError
	is.Equal(r.stdout, "[projects_create] invalid arguments: name: must be at least 3 characters\n")
	is.Equal(r.stderr, "vurb call: the tool projects_create answered with an error\n")

	r = vurb(t, nil, "manifest", server)
	is.Equal(r.code, 0)
	m, err := manifest.Parse([]byte(r.stdout))
	is.NoErr(err)
	is.Equal(m.Server.Name, "quickstart")
	is.Equal(len(m.Tools), 3)

	r = vurb(t, nil, "lock", server)
	is.Equal(r.code, 0)
	l, err := manifest.ParseLock([]byte(r.stdout))
	is.NoErr(err)
	is.Equal(len(l.Tools), 3)
	is.True(strings.HasPrefix(l.Tools["projects_list"], "sha256:"))
	return []byte(r.stdout)
}

func TestQuickstartOverStdio(t *testing.T) {
	quickstartSession(t, path("quickstart"))
}

func TestQuickstartOverHTTP(t *testing.T) {
	is := is.New(t)
	if bin == "" {
		t.Skip("not in -short mode")
	}
	addr := freeAddr(t)
	server := exec.Command(path("quickstart"), "-http", addr)
	var logs bytes.Buffer
	server.Stderr = &logs
	is.NoErr(server.Start())
	t.Cleanup(func() {
		_ = server.Process.Signal(os.Interrupt)
		_ = server.Wait()
	})
	waitForPort(t, addr)
	url := "http://" + addr + "/mcp"
	httpLock := quickstartSession(t, url)
	// The same server over stdio has the same contract, digest for digest.
	r := vurb(t, nil, "lock", path("quickstart"))
	is.Equal(r.stdout, string(httpLock))
	r = vurb(t, nil, "diff", url, path("quickstart"))
	is.Equal(r.code, 0)
	is.Equal(r.stdout, "0 changes: 0 breaking, 0 compatible\n")
}

func TestPlainGoSDKServer(t *testing.T) {
	is := is.New(t)
	env := []string{serverEnv + "=plain"}
	server := os.Args[0] // this test binary, which TestMain turns into the server
	r := vurb(t, env, "inspect", server)
	is.Equal(r.code, 0)
	is.True(strings.HasPrefix(r.stdout, "plain 0.1.0 · MCP "))
	is.True(strings.Contains(r.stdout, "instructions: Greets people."))
	is.True(strings.Contains(r.stdout, "  greet  [no annotations: destructive by default]"))
	is.True(strings.Contains(r.stdout, "in:  name  string    who to greet"))
	is.True(strings.Contains(r.stdout, "  welcome(name)  A welcome message"))
	is.True(strings.Contains(r.stdout, "  file:///motd  motd  text/plain"))
	is.True(!strings.Contains(r.stdout, "Expositions")) // not a vurb server

	r = vurb(t, env, "call", server, "greet", "name=Ada")
	is.Equal(r.code, 0)
	is.Equal(r.stdout, "hello, Ada\n")

	r = vurb(t, env, "manifest", server)
	is.Equal(r.code, 0)
	m, err := manifest.Parse([]byte(r.stdout))
	is.NoErr(err)
	is.Equal(m.Exposition, "")
	is.Equal(m.Tools[0].Name, "greet")
	is.Equal(m.Prompts[0].Arguments[0], manifest.Argument{Name: "name", Required: true})
	is.Equal(m.Resources[0].URI, "file:///motd")
}

func TestBothExpositions(t *testing.T) {
	is := is.New(t)
	r := vurb(t, nil, "inspect", "--json", path("v1"))
	is.Equal(r.code, 0)
	var rep inspection
	is.NoErr(json.Unmarshal([]byte(r.stdout), &rep))
	is.Equal(len(rep.Expositions), 2)
	flat, grouped := rep.Expositions[0], rep.Expositions[1]
	is.Equal(flat.Name, "flat")
	is.True(flat.Served)
	is.Equal(len(flat.Tools), 3)
	is.Equal(grouped.Name, "grouped")
	is.Equal(grouped.Tools[0].Name, "tasks")
	is.True(grouped.Tokens < flat.Tokens) // the point of grouping
	is.Equal(rep.Tools[0].Groups, []string{"tasks", "user-facing"})

	r = vurb(t, nil, "inspect", path("v1"))
	is.True(flat.ModelTokens > 0 && flat.ModelTokens < flat.Tokens) // names, descriptions and input schemas only
	is.True(strings.Contains(r.stdout, "Expositions (the same actions, listed both ways)\n  flat (served)  tokens  grouped     tokens\n"))
	is.True(strings.Contains(r.stdout, fmt.Sprintf("  model view     %-6d  model view  %d\n", flat.ModelTokens, grouped.ModelTokens)))
}

func TestDiffBetweenReleases(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	pinned := filepath.Join(dir, "vurb.manifest.json")
	lockfile := filepath.Join(dir, "vurb.lock")

	r := vurb(t, nil, "manifest", path("v1"), "-o", pinned)
	is.Equal(r.code, 0)
	r = vurb(t, nil, "lock", path("v1"), "-o", lockfile)
	is.Equal(r.code, 0)

	const breaking = "BREAKING    tools/tasks_create/input/project_id: new required field \"project_id\": calls without it are refused\n"
	r = vurb(t, nil, "diff", pinned, path("v2"))
	is.Equal(r.code, 1)
	is.Equal(r.stdout, breaking+"1 change: 1 breaking, 0 compatible\n")
	is.Equal(r.stderr, "vurb diff: 1 breaking change\n")

	r = vurb(t, nil, "diff", path("v1"), path("v2"), "--json")
	is.Equal(r.code, 1)
	var out struct {
		Changes  []manifest.Change
		Breaking bool
	}
	is.NoErr(json.Unmarshal([]byte(r.stdout), &out))
	is.True(out.Breaking)
	is.Equal(out.Changes[0].Kind, manifest.RequiredAdded)

	r = vurb(t, nil, "diff", pinned, path("v1"))
	is.Equal(r.code, 0)
	// Going back is no safer: v1 refuses the field v2's clients send.
	r = vurb(t, nil, "diff", path("v2"), path("v1"))
	is.Equal(r.code, 1)
	is.Equal(r.stdout, "BREAKING    tools/tasks_create/input/project_id: field \"project_id\" removed: calls that send it are refused\n"+
		"1 change: 1 breaking, 0 compatible\n")

	r = vurb(t, nil, "lock", path("v2"), "-check", lockfile)
	is.Equal(r.code, 1)
	is.Equal(r.stdout, "tool tasks_create changed\naction tasks.create changed\n")
	r = vurb(t, nil, "lock", path("v1"), "-check", lockfile)
	is.Equal(r.code, 0)
}

func TestClearErrors(t *testing.T) {
	is := is.New(t)
	r := vurb(t, []string{serverEnv + "=oldproto"}, "inspect", os.Args[0])
	is.Equal(r.code, 3)
	is.True(strings.Contains(r.stderr, `the server speaks MCP revision "1999-01-01", which this vurb does not: it speaks 2026-07-28, 2025-11-25`))

	r = vurb(t, nil, "inspect", filepath.Join(bin, "no-such-server"))
	is.Equal(r.code, 3)
	is.True(strings.Contains(r.stderr, "cannot start the server"))

	r = vurb(t, nil, "inspect", "sh -c 'echo cannot open the database >&2; exit 1'")
	is.Equal(r.code, 3)
	is.True(strings.Contains(r.stderr, "did not start an MCP session on stdio"))
	is.True(strings.Contains(r.stderr, "its standard error ended with:\n  cannot open the database"))

	r = vurb(t, nil, "inspect", "http://"+freeAddr(t)+"/mcp")
	is.Equal(r.code, 3)
	is.True(strings.Contains(r.stderr, "did not answer as an MCP server (streamable HTTP)"))

	r = vurb(t, nil, "diff", path("v1"))
	is.Equal(r.code, 2)
	is.True(strings.Contains(r.stderr, "diff takes two servers or manifests"))
	r = vurb(t, nil, "frobnicate")
	is.Equal(r.code, 2)
}

// freeAddr is a loopback address with a port nobody listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func waitForPort(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s", addr)
}
