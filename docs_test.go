package vurb_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// The documentation's code blocks (README.md, bench/README.md and docs/*.md) are held as the
// golden files are. Every block names its language, and each language has
// its check:
//
//   - go: a block just below `<!-- include PATH REGION -->` is an excerpt of
//     a compiled file of this repository, the lines between
//     `//docs:region REGION` and `//docs:endregion` in PATH (less their
//     common indentation and opening or closing blank lines), and must be
//     them byte for byte. Any other block
//     is a whole file, package clause and imports included: it is written
//     alone into a directory of a temporary module, exactly as shown, and
//     built and vetted (go vet) there, under the module's minimum Go, in a
//     go.work that uses this module and its nested ones. It must be gofmt'd.
//   - sh, bash: bash -n.
//   - haproxy: haproxy -c -f (skipped without haproxy unless CI is set).
//   - yaml: parsed; json: parsed.
//   - text, markdown: shown, not checked.
//
// A failure names the page and the line. Relative links between pages and
// to files of the repository must lead somewhere.

// docsModules are the nested modules the blocks may import from, beside
// this one.
var docsModules = []string{"otel", "redisstate"}

// docsLanguages are the languages a block may be written in.
var docsLanguages = map[string]bool{"go": true, "sh": true, "bash": true, "haproxy": true, "yaml": true, "json": true, "text": true, "markdown": true}

type docBlock struct {
	file    string // the page, relative to the repository: docs/serving.md
	line    int    // the page's line of the block's first line of code
	lang    string
	code    string // the lines between the fences, less the fence's indentation
	include string // PATH REGION of an include comment above the block, if any
}

func (b docBlock) at() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("docs/ has no page")
	}
	return append([]string{"README.md", "bench/README.md"}, pages...)
}

var docsInclude = regexp.MustCompile(`^<!-- include (\S+) (\S+) -->$`)

func docBlocks(t *testing.T) []docBlock {
	t.Helper()
	var blocks []docBlock
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i := 0; i < len(lines); i++ {
			trimmed := strings.TrimLeft(lines[i], " \t")
			if !strings.HasPrefix(trimmed, "```") {
				continue
			}
			indent := lines[i][:len(lines[i])-len(trimmed)]
			b := docBlock{file: page, line: i + 2, lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))}
			for j := i - 1; j >= 0; j-- {
				if above := strings.TrimSpace(lines[j]); above != "" {
					if m := docsInclude.FindStringSubmatch(above); m != nil {
						b.include = m[1] + " " + m[2]
					}
					break
				}
			}
			end := i + 1
			var code []string
			for ; end < len(lines) && strings.TrimSpace(lines[end]) != "```"; end++ {
				code = append(code, strings.TrimPrefix(lines[end], indent))
			}
			if end == len(lines) {
				t.Fatalf("%s:%d: a code block that never ends", page, i+1)
			}
			b.code = strings.Join(code, "\n") + "\n"
			blocks = append(blocks, b)
			i = end
		}
	}
	return blocks
}

func TestDocsBlocksNameTheirLanguage(t *testing.T) {
	for _, b := range docBlocks(t) {
		if !docsLanguages[b.lang] {
			t.Errorf("%s: a code block in %q: name its language (go, sh, haproxy, yaml, json, text, markdown)", b.at(), b.lang)
		}
	}
}

func docBlocksIn(t *testing.T, langs ...string) []docBlock {
	t.Helper()
	var out []docBlock
	for _, b := range docBlocks(t) {
		for _, l := range langs {
			if b.lang == l {
				out = append(out, b)
			}
		}
	}
	return out
}

// docRegion returns the lines of path between `//docs:region name` and
// `//docs:endregion`, less their common indentation and the blank lines
// that open or close it (gofmt puts one between a top-level declaration
// and a comment after it).
func docRegion(path, name string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	lines := strings.Split(string(data), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "//docs:region "+name {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return "", fmt.Errorf("%s has no //docs:region %s", path, name)
	}
	end := start
	for end < len(lines) && strings.TrimSpace(lines[end]) != "//docs:endregion" {
		end++
	}
	if end == len(lines) {
		return "", fmt.Errorf("%s: region %s has no //docs:endregion", path, name)
	}
	for start < end && strings.TrimSpace(lines[start]) == "" {
		start++
	}
	for end > start && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	region := lines[start:end]
	common, set := "", false
	for _, l := range region {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if !set {
			common, set = ind, true
		}
		for !strings.HasPrefix(ind, common) {
			common = common[:len(common)-1]
		}
	}
	for k, l := range region {
		region[k] = strings.TrimPrefix(l, common)
	}
	return strings.Join(region, "\n") + "\n", nil
}

func TestDocsGoBlocksAreIncludedAsTheyAre(t *testing.T) {
	n := 0
	for _, b := range docBlocksIn(t, "go") {
		if b.include == "" {
			continue
		}
		n++
		path, name, _ := strings.Cut(b.include, " ")
		want, err := docRegion(path, name)
		if err != nil {
			t.Errorf("%s: %v", b.at(), err)
			continue
		}
		if b.code != want {
			t.Errorf("%s: the block differs from %s, region %s, at its line %d:\n got: %q\nwant: %q\nthe region is:\n%s",
				b.at(), path, name, firstDiff(b.code, want), lineOf(b.code, firstDiff(b.code, want)), lineOf(want, firstDiff(b.code, want)), want)
		}
	}
	if n == 0 {
		t.Error("no ```go block is included from a compiled file")
	}
}

func firstDiff(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range al {
		if i >= len(bl) || al[i] != bl[i] {
			return i + 1
		}
	}
	return len(al) + 1
}

func lineOf(s string, n int) string {
	lines := strings.Split(s, "\n")
	if n-1 < len(lines) {
		return lines[n-1]
	}
	return ""
}

// docsDir names the directory a whole-file block is built in after its
// page and line, and docsPosition reads them back from the go command's
// messages.
func docsDir(b docBlock) string {
	return strings.NewReplacer("/", "__", ".", "_").Replace(b.file) + "_L" + strconv.Itoa(b.line)
}

var docsPosition = regexp.MustCompile(`(?:\./)?([\w-]+)_L(\d+)/[\w.]+\.go:(\d+)(:\d+)?`)

// docsWhere rewrites the go command's positions in the blocks' directories
// as positions in the pages.
func docsWhere(out []byte) string {
	return docsPosition.ReplaceAllStringFunc(string(out), func(s string) string {
		m := docsPosition.FindStringSubmatch(s)
		page := strings.NewReplacer("__", "/", "_md", ".md").Replace(m[1])
		first, _ := strconv.Atoi(m[2])
		line, _ := strconv.Atoi(m[3])
		return fmt.Sprintf("%s:%d%s", page, first+line-1, m[4])
	})
}

// docsFileName is the name a whole-file block is written under: x_test.go
// for a package whose name ends in _test.
func docsFileName(code string) string {
	first, _, _ := strings.Cut(code, "\n")
	if f := strings.Fields(first); len(f) == 2 && strings.HasSuffix(f[1], "_test") {
		return "x_test.go"
	}
	return "main.go"
}

var docsEmbed = regexp.MustCompile(`(?m)^//go:embed ([\w./-]+)$`)

func TestDocsGoBlocksCompile(t *testing.T) {
	work := docsWorkspace(t)
	n := 0
	for _, b := range docBlocksIn(t, "go") {
		if b.include != "" {
			continue
		}
		if !strings.HasPrefix(b.code, "package ") {
			t.Errorf("%s: a ```go block is a whole file (package clause, imports) or sits below <!-- include PATH REGION -->", b.at())
			continue
		}
		if formatted, err := format.Source([]byte(b.code)); err != nil || !bytes.Equal(formatted, []byte(b.code)) {
			t.Errorf("%s: the block is not gofmt'd (%v)", b.at(), err)
		}
		n++
		dir := filepath.Join(work, docsDir(b))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, docsFileName(b.code)), []byte(b.code), 0o644); err != nil {
			t.Fatal(err)
		}
		// A //go:embed line names a folder the reader keeps beside the file.
		for _, m := range docsEmbed.FindAllStringSubmatch(b.code, -1) {
			folder := filepath.Join(dir, m[1], "example")
			if err := os.MkdirAll(folder, 0o755); err != nil {
				t.Fatal(err)
			}
			skill := "---\nname: example\ndescription: An example skill\n---\nSay hello.\n"
			if err := os.WriteFile(filepath.Join(folder, "SKILL.md"), []byte(skill), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n == 0 {
		t.Fatal("the documentation has no whole-file ```go block")
	}
	if out, err := docsGo(work, nil, "vet", "./..."); err != nil {
		t.Errorf("the documentation's Go blocks do not build as written:\n%s", docsWhere(out))
	}
}

// TestDocsQuickStartRuns runs the README's first block, the quick start,
// as a stdio server: it answers a session written to its stdin, then exits
// at the end of the input.
func TestDocsQuickStartRuns(t *testing.T) {
	var first docBlock
	for _, b := range docBlocksIn(t, "go") {
		if b.file == "README.md" {
			first = b
			break
		}
	}
	if !strings.HasPrefix(first.code, "package main\n") {
		t.Fatalf("%s: the README's first ```go block, the quick start, is not a whole program", first.at())
	}
	work := docsWorkspace(t)
	dir := filepath.Join(work, "quickstart")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(first.code), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "server")
	if out, err := docsGo(work, nil, "build", "-o", bin, "./quickstart"); err != nil {
		t.Fatalf("%s: go build: %v\n%s", first.at(), err, out)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"docs","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"weather_get","arguments":{"city":"Paris"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"weather_get","arguments":{"units":"kelvin"}}}`,
	}, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the quick start failed: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the quick start did not exit at the end of its input; it wrote:\n%s", stdout.String())
	}
	for _, want := range []string{
		`"name":"weather_get"`,
		`"readOnlyHint":true`,
		`"required":["city"]`,
		`"enum":["metric","imperial"]`,
		`Sunny in Paris`,
		`city: is required`,
		`units: must be one of: metric, imperial`,
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the quick start's answers lack %s:\n%s", want, stdout.String())
		}
	}
}

// TestDocsTestFileRuns runs the complete test file of docs/testing.md:
// once with VURBTEST_UPDATE=1 to write its golden file, then as a reader
// runs it.
func TestDocsTestFileRuns(t *testing.T) {
	var file docBlock
	for _, b := range docBlocksIn(t, "go") {
		if b.file == "docs/testing.md" && b.include == "" && docsFileName(b.code) == "x_test.go" {
			file = b
		}
	}
	if file.code == "" {
		t.Fatal("docs/testing.md has no complete test file")
	}
	work := docsWorkspace(t)
	dir := filepath.Join(work, "projects")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "projects_test.go"), []byte(file.code), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct {
		update string // VURBTEST_UPDATE
		args   []string
	}{
		{"1", []string{"test", "-count=1", "-run", "TestToolsList", "./projects"}},
		{"", []string{"test", "-count=1", "./projects"}},
	} {
		if out, err := docsGo(work, []string{"VURBTEST_UPDATE=" + run.update}, run.args...); err != nil {
			t.Fatalf("%s: VURBTEST_UPDATE=%s go %s: %v\n%s", file.at(), run.update, strings.Join(run.args, " "), err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata", "tools.json")); err != nil {
		t.Errorf("%s: the golden file was not written: %v", file.at(), err)
	}
}

func TestDocsShellBlocksParse(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, b := range docBlocksIn(t, "sh", "bash") {
		cmd := exec.Command("bash", "-n")
		cmd.Stdin = strings.NewReader(b.code)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: bash -n: %v\n%s", b.at(), err, out)
		}
	}
}

func TestDocsHAProxyBlocksAreValid(t *testing.T) {
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		if _, statErr := os.Stat("/usr/sbin/haproxy"); statErr == nil {
			haproxy, err = "/usr/sbin/haproxy", nil
		}
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("haproxy is not installed, and CI is set")
		}
		t.Skip("no haproxy; .ci/run installs it")
	}
	blocks := docBlocksIn(t, "haproxy")
	if len(blocks) == 0 {
		t.Fatal("the documentation has no ```haproxy block")
	}
	for _, b := range blocks {
		cfg := filepath.Join(t.TempDir(), "haproxy.cfg")
		if err := os.WriteFile(cfg, []byte(b.code), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(haproxy, "-c", "-f", cfg).CombinedOutput(); err != nil {
			t.Errorf("%s: haproxy -c (its line N is the page's line %d+N-1): %v\n%s", b.at(), b.line, err, out)
		}
	}
}

func TestDocsDataBlocksParse(t *testing.T) {
	for _, b := range docBlocksIn(t, "yaml", "json") {
		var v any
		var err error
		if b.lang == "yaml" {
			err = yaml.Unmarshal([]byte(b.code), &v)
		} else {
			err = json.Unmarshal([]byte(b.code), &v)
		}
		if err != nil {
			t.Errorf("%s: the %s block does not parse: %v", b.at(), b.lang, err)
		}
	}
}

var docsLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

func TestDocsLinksLeadSomewhere(t *testing.T) {
	for _, page := range docPages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		inFence := false
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inFence = !inFence
			}
			if inFence {
				continue
			}
			for _, m := range docsLink.FindAllStringSubmatch(line, -1) {
				target, anchor, _ := strings.Cut(m[1], "#")
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path := filepath.Join(filepath.Dir(page), target)
				if target == "" {
					path = page
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: the link %s leads nowhere", page, i+1, m[1])
					continue
				}
				if anchor != "" && strings.HasSuffix(path, ".md") && !docsAnchors(t, path)[anchor] {
					t.Errorf("%s:%d: the link %s names no heading of %s", page, i+1, m[1], path)
				}
			}
		}
	}
}

var docsSlugDrop = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)

// docsAnchors are the anchors GitHub gives the headings of a page.
func docsAnchors(t *testing.T, page string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	inFence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		anchors[strings.ReplaceAll(docsSlugDrop.ReplaceAllString(title, ""), " ", "-")] = true
	}
	return anchors
}

func docsWorkspace(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	goMod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var goLine string
	for l := range strings.Lines(string(goMod)) {
		if strings.HasPrefix(l, "go ") {
			goLine = strings.TrimSpace(l)
		}
	}
	uses := []string{".", root}
	for _, m := range docsModules {
		uses = append(uses, filepath.Join(root, m))
	}
	work := t.TempDir()
	files := map[string]string{
		"go.mod":  "module docs\n\n" + goLine + "\n",
		"go.work": goLine + "\n\nuse (\n\t" + strings.Join(uses, "\n\t") + "\n)\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(work, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return work
}

func docsGo(work string, env []string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOWORK="+filepath.Join(work, "go.work"), "GOFLAGS=-buildvcs=false")
	cmd.Env = append(cmd.Env, env...)
	return cmd.CombinedOutput()
}
