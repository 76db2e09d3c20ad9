package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/matryer/is"
)

// server is a hostile server reachable both ways: the test binary run
// over stdio, or an httptest server.
type server struct {
	name string
	env  []string // for the stdio server
	arg  string   // what vurb is given
}

// bothWays is the behaviour name over stdio and over HTTP.
func bothWays(t *testing.T, name string) []server {
	t.Helper()
	if bin == "" {
		t.Skip("the end-to-end tests build binaries; not in -short mode")
	}
	h := httptest.NewServer(serveHTTP(hostileServers[name]))
	t.Cleanup(h.Close)
	return []server{
		{"stdio", []string{serverEnv + "=" + name}, os.Args[0]},
		{"http", nil, h.URL + "/mcp"},
	}
}

// raw reports the first character of out a terminal would act on rather
// than show: what manifest.Visible escapes, newlines and tabs excepted.
func raw(out string) (rune, bool) {
	for _, r := range out {
		if r == '\n' || r == '\t' {
			continue
		}
		if r < 0x20 || r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) {
			return r, true
		}
	}
	return 0, false
}

// noRaw fails when out holds a character a terminal would act on.
func noRaw(t *testing.T, what, out string) {
	t.Helper()
	if r, found := raw(out); found {
		t.Errorf("%s holds %U raw:\n%q", what, r, out)
	}
}

// TestServerTextIsShownNotRun: a server put escape sequences in its name,
// instructions, tools, fields, prompts, resources, results, progress and
// log messages and errors; vurb wrote them raw, and the server retitled
// the terminal, wrote to the clipboard and erased lines. Now every one is
// shown escaped, over stdio and HTTP.
func TestServerTextIsShownNotRun(t *testing.T) {
	for _, s := range bothWays(t, "escapes") {
		t.Run(s.name, func(t *testing.T) {
			is := is.New(t)
			r := vurb(t, s.env, "inspect", s.arg, "--progress")
			is.Equal(r.code, 0)
			noRaw(t, "inspect's output", r.stdout)
			noRaw(t, "inspect's progress", r.stderr)
			for _, want := range []string{
				`evil\x1b]0;pwned\x07 1\u009b8m · MCP 2025-06-18`,
				`instructions: Read \x1b]52;c;cm0gLXJmIH4=\x07 this`,
				"  delete_everything  [read-only]",
				`    title: t\x1b]0;pwned\x07`,
				`  hide\x0d\x1b[1A\x1b[2K  [no annotations: destructive by default]`,
				`    x \x1b[1A\x1b[2K`, // the return is white space, made a space
				`    auth: required, scopes s\x1b]0;pwned\x07`,
				`f\x1b]52;c;cm0gLXJmIH4=\x07?  "a\u001b]0;pwned\u0007"  /^\u009b8m/  \u202ed`,
				`  p\x1b]0;pwned\x07(a\u202e)  \u009b8m`,
				`  file:///x\x1b]0;pwned\x07  n\u200b  text/plain\u009b8m  d e`,
			} {
				is.True(strings.Contains(r.stdout, want)) // want is in the output
			}
			is.True(strings.Contains(r.stderr, `no templates\x1b]0;pwned\x07`))

			r = vurb(t, s.env, "call", s.arg, "anything", "--progress")
			is.Equal(r.code, 0)
			noRaw(t, "call's output", r.stdout)
			noRaw(t, "call's progress", r.stderr)
			// The structured content, alone: JSON escapes, then Visible the rest.
			is.Equal(r.stdout, "{\n  \"k\\u202e\": \"v\\u001b]0;pwned\\u0007\"\n}\n")
			is.True(strings.Contains(r.stderr, `anything: 1 half\x1b]0;pwned\x07`))
			is.True(strings.Contains(r.stderr, `anything log [info]: log\x1b]52;c;cm0gLXJmIH4=\x07`))

			r = vurb(t, s.env, "call", s.arg, "unstructured")
			is.Equal(r.code, 0)
			noRaw(t, "call's output", r.stdout)
			is.Equal(r.stdout, `done\x1b]52;c;cm0gLXJmIH4=\x07\x0d\x1b[1A\x1b[2K`+"\nsecond line\n"+
				`[resource link file:///r\x1b]0;pwned\x07]`+"\n"+
				`[image image/png\u009b8m, 0 bytes]`+"\n")

			r = vurb(t, s.env, "call", s.arg, "anything", "-H", "X: y") // -H is ignored over stdio
			is.Equal(r.code, 0)
		})
	}
}

// TestErrorsAreShownNotRun: what a server answers as an error, and the
// end of the standard error of one that crashed, reach the terminal
// escaped; with -v, its standard error too.
func TestErrorsAreShownNotRun(t *testing.T) {
	is := is.New(t)
	r := vurb(t, []string{serverEnv + "=crash"}, "inspect", os.Args[0])
	is.Equal(r.code, 3)
	noRaw(t, "the crash report", r.stderr)
	is.True(strings.Contains(r.stderr, "its standard error ended with:\n"+`  fatal: \x1b]52;c;cm0gLXJmIH4=\x07 \x1b]0;pwned\x07\x0d\x1b[2K\u202eoops`))

	r = vurb(t, []string{serverEnv + "=crash"}, "inspect", os.Args[0], "-v")
	is.Equal(r.code, 3)
	noRaw(t, "the server's standard error, passed through", r.stderr)
	is.True(strings.HasPrefix(r.stderr, `fatal: \x1b]52;c;cm0gLXJmIH4=\x07 \x1b]0;pwned\x07\x0d\x1b[2K\u202eoops`+"\n"))

	r = vurb(t, []string{serverEnv + "=escapes"}, "manifest", os.Args[0], "-o", filepath.Join(t.TempDir(), "m.json"))
	is.Equal(r.code, 0)
}

// TestDiffIsShownNotRun: a tool named to move up a line and erase it
// erased the "BREAKING ... tool removed" line above it from vurb diff's
// output; lock -check's lines took names raw too.
func TestDiffIsShownNotRun(t *testing.T) {
	is := is.New(t)
	if bin == "" {
		t.Skip("not in -short mode")
	}
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	new := filepath.Join(dir, "new.json")
	is.NoErr(os.WriteFile(old, []byte(`{"format":"vurb.manifest/v1","server":{"name":"s"},"tools":[{"name":"delete_everything","inputSchema":{"type":"object"}}]}`), 0o644))
	is.NoErr(os.WriteFile(new, []byte(`{"format":"vurb.manifest/v1","server":{"name":"s"},"tools":[{"name":"x`+eraseUp+`","inputSchema":{"type":"object"}}]}`), 0o644))
	r := vurb(t, nil, "diff", old, new)
	is.Equal(r.code, 1)
	noRaw(t, "diff's output", r.stdout)
	is.Equal(r.stdout, "BREAKING    tools/delete_everything: tool removed: calls to it will fail\n"+
		`compatible  tools/x\x0d\x1b[1A\x1b[2K: new tool`+"\n"+
		"2 changes: 1 breaking, 1 compatible\n")

	lock := filepath.Join(dir, "vurb.lock")
	r = vurb(t, nil, "lock", old, "-o", lock)
	is.Equal(r.code, 0)
	r = vurb(t, nil, "lock", new, "-check", lock)
	is.Equal(r.code, 1)
	is.Equal(r.stdout, "tool delete_everything removed\n"+`tool x\x0d\x1b[1A\x1b[2K added`+"\n")
}

// TestDiffRefusesDuplicates: a manifest listing a tool twice, the second
// destructive, matched the lock of the first and diffed as unchanged.
func TestDiffRefusesDuplicates(t *testing.T) {
	is := is.New(t)
	if bin == "" {
		t.Skip("not in -short mode")
	}
	dir := t.TempDir()
	one := `{"name":"delete_everything","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"idempotentHint":false}}`
	two := `{"name":"delete_everything","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"idempotentHint":false}}`
	pinned := filepath.Join(dir, "pinned.json")
	twice := filepath.Join(dir, "twice.json")
	is.NoErr(os.WriteFile(pinned, []byte(`{"format":"vurb.manifest/v1","server":{"name":"s"},"tools":[`+one+`]}`), 0o644))
	is.NoErr(os.WriteFile(twice, []byte(`{"format":"vurb.manifest/v1","server":{"name":"s"},"tools":[`+one+`,`+two+`]}`), 0o644))
	lock := filepath.Join(dir, "vurb.lock")
	is.Equal(vurb(t, nil, "lock", pinned, "-o", lock).code, 0)
	const refusal = `tool "delete_everything" is listed twice: a server lists each name once, and a diff or lock would see only one of them`
	r := vurb(t, nil, "lock", twice, "-check", lock)
	is.Equal(r.code, 3)
	is.Equal(r.stderr, "vurb lock: "+twice+": "+refusal+"\n")
	r = vurb(t, nil, "diff", pinned, twice)
	is.Equal(r.code, 3)
	is.Equal(r.stderr, "vurb diff: new: "+twice+": "+refusal+"\n")
}

// headerLog records the Authorization header of every request a server
// got.
type headerLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *headerLog) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.seen = append(l.seen, r.Header.Get("Authorization"))
		l.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (l *headerLog) requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// TestHeadersStayWithTheirHost: vurb inspect -H "Authorization: ..."
// against a server that 307-redirects to another host delivered the token
// there: vurb's transport added -H headers on every hop, undoing
// net/http's stripping. The other host now never sees them, while a
// redirect within the host still carries them.
func TestHeadersStayWithTheirHost(t *testing.T) {
	is := is.New(t)
	if bin == "" {
		t.Skip("not in -short mode")
	}
	var other, home headerLog
	b := httptest.NewServer(other.record(serveHTTP(escapes)))
	defer b.Close()
	mux := http.NewServeMux()
	mux.Handle("/mcp", home.record(serveHTTP(escapes)))
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/mcp", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
	})
	a := httptest.NewServer(mux)
	defer a.Close()
	const token = "Bearer s3cret"

	r := vurb(t, nil, "inspect", "-H", "Authorization: "+token, a.URL+"/away")
	is.Equal(r.code, 0) // the redirect is followed
	is.True(len(other.requests()) > 0)
	for _, h := range other.requests() {
		is.Equal(h, "") // the other host never sees the token
	}

	r = vurb(t, nil, "inspect", "-H", "Authorization: "+token, a.URL+"/moved")
	is.Equal(r.code, 0)
	is.True(len(home.requests()) > 0)
	for _, h := range home.requests() {
		is.Equal(h, token) // within the host, every request carries it
	}
}

// TestBoundedAnswers: a server answered tools/list with 64 MB: vurb
// inspect read it whole (the go-sdk reads an HTTP answer into memory
// before decoding it) and ran for 21 s at 1 GB resident. It now stops
// reading at -max-bytes (16 MiB) and says so, over stdio and HTTP.
func TestBoundedAnswers(t *testing.T) {
	for _, s := range bothWays(t, "big") {
		t.Run(s.name, func(t *testing.T) {
			is := is.New(t)
			r := vurb(t, s.env, "inspect", s.arg)
			is.Equal(r.code, 3)
			is.True(strings.Contains(r.stderr, "the server sent more than 16MiB; vurb stopped reading it (-max-bytes raises the bound)"))
			t.Logf("%s: exit %d after %v, %d MB resident at most", s.name, r.code, r.elapsed.Round(time.Millisecond), r.maxRSS>>20)
			is.True(r.elapsed < 20*time.Second)
			if r.maxRSS > 0 {
				is.True(r.maxRSS < 300<<20) // 16 MiB read, not 64 MB and its decoding
			}
			r = vurb(t, s.env, "inspect", s.arg, "-max-bytes", "1MiB")
			is.Equal(r.code, 3)
			is.True(strings.Contains(r.stderr, "the server sent more than 1MiB;"))
		})
	}
}

// TestBoundedPages: a server that pages forever grew vurb by 50 MB a
// second until the timeout (1.1 GB after 20 s). Listing now stops at
// -max-items items, -max-pages pages, or a cursor sent twice.
func TestBoundedPages(t *testing.T) {
	for _, tc := range []struct{ name, flag, want string }{
		{"pages", "", "tools/list: the server lists more than 10000 tools; vurb stopped asking (-max-items raises the bound)"},
		{"pages", "-max-items=250", "tools/list: the server lists more than 250 tools;"},
		{"emptypages", "", "tools/list: the server has more after 1000 pages; vurb stopped asking (-max-pages raises the bound)"},
		{"emptypages", "-max-pages=7", "tools/list: the server has more after 7 pages;"},
		{"looppages", "", `tools/list: the server sent the cursor "again" twice: its pages loop`},
	} {
		for _, s := range bothWays(t, tc.name) {
			t.Run(tc.name+tc.flag+"/"+s.name, func(t *testing.T) {
				is := is.New(t)
				args := []string{"inspect", s.arg}
				if tc.flag != "" {
					args = append(args, tc.flag)
				}
				r := vurb(t, s.env, args...)
				is.Equal(r.code, 3)
				is.True(strings.Contains(r.stderr, tc.want))
				is.True(r.elapsed < 20*time.Second)
				if r.maxRSS > 0 {
					is.True(r.maxRSS < 300<<20)
				}
			})
		}
	}
}

// TestTimeoutBoundsTheWholeCommand: -timeout bounded the session, not
// token counting, which ran after the listing without watching the
// clock: a list of 48 MB, allowed by -max-bytes, kept inspect -timeout 3s
// busy for 15 s. Counting now stops between tools at the timeout, and a
// step that does not return in time (one description of 40 MB is one
// count) is given up on a second later.
func TestTimeoutBoundsTheWholeCommand(t *testing.T) {
	if bin == "" {
		t.Skip("not in -short mode")
	}
	for _, tc := range []struct {
		name string
		b    behaviour
	}{
		{"many tools", bigListOf(48)},
		{"one huge description", hugeDescription(40)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			h := httptest.NewServer(serveHTTP(tc.b))
			defer h.Close()
			r := vurb(t, nil, "inspect", h.URL+"/mcp", "-max-bytes", "256MiB", "-max-items", "100000", "-timeout", "3s", "--progress")
			t.Logf("exit %d after %v", r.code, r.elapsed.Round(time.Millisecond))
			is.Equal(r.code, 3)
			is.True(strings.Contains(r.stderr, "\nvurb inspect: gave up after 3s (-timeout)"))
			is.True(r.elapsed < 3*time.Second+giveUpAfter+2*time.Second) // the grace, and the process's start
		})
	}
}
