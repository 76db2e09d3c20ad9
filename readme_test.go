package vurb_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// The README's Go blocks are held as the golden files are: every ```go
// block is built and vetted (go vet), with only the glue a reader would
// add, so a block that stops compiling fails here, at its README line. Run
// under the module's minimum Go (CI's first pass, plain `go test`), this
// holds the blocks to that Go; the quick start is also run, and the
// complete test file's tests too.
//
// The glue, all of it:
//
//   - A block that begins with a package clause is a whole file and is
//     taken as it is (named x_test.go when its package ends in _test).
//   - Any other block is a fragment of package main. Its func, type, var
//     and const declarations that begin a line at column 0 stay at file
//     level; every other line is a statement of func main, or of func
//     TestReadme(t *testing.T) in a _test.go file when the fragment uses
//     t. Each variable the statements declare gets `_ = name` after them,
//     for a fragment that shows a value without using it.
//   - Imports are added for the package names a fragment uses and does not
//     declare, from readmeImports, as goimports would.
//   - What a reader's program already has, a fragment may use without
//     declaring: the names of readmePlaceholders (a context, an app, the
//     handlers the prose names, the running example's types), declared
//     only when used.
//
// The blocks are built in a module of their own, in a temporary go.work
// that uses this module and its nested ones (a block imports vurbotel), so
// nothing is written into the repository.

// readmeImports are the packages a fragment may name without importing.
var readmeImports = map[string]string{
	"context":    "context",
	"errors":     "errors",
	"fmt":        "fmt",
	"http":       "net/http",
	"json":       "encoding/json",
	"hex":        "encoding/hex",
	"log":        "log",
	"os":         "os",
	"regexp":     "regexp",
	"slices":     "slices",
	"atomic":     "sync/atomic",
	"signal":     "os/signal",
	"strings":    "strings",
	"syscall":    "syscall",
	"testing":    "testing",
	"time":       "time",
	"auth":       "github.com/modelcontextprotocol/go-sdk/auth",
	"mcp":        "github.com/modelcontextprotocol/go-sdk/mcp",
	"oauthex":    "github.com/modelcontextprotocol/go-sdk/oauthex",
	"validator":  "github.com/go-playground/validator/v10",
	"vurb":       "github.com/vurb-go/vurb",
	"oidc":       "github.com/vurb-go/vurb/oidc",
	"schema":     "github.com/vurb-go/vurb/schema",
	"jsonschema": "github.com/vurb-go/vurb/schema/jsonschema",
	"vurbotel":   "github.com/vurb-go/vurb/otel",
	"vurbtest":   "github.com/vurb-go/vurb/vurbtest",
	"redis":      "github.com/redis/go-redis/v9",
	"redisstate": "github.com/vurb-go/vurb/redisstate",
}

// readmeModules are the nested modules the blocks may import from, beside
// this one.
var readmeModules = []string{"otel", "redisstate"}

// readmePlaceholders are what a reader's program has before it pastes a
// fragment: a context, an app, its handlers and the types of the README's
// running example, which the prose names without writing them again.
var readmePlaceholders = map[string]string{
	"ctx":               "var ctx = context.Background()",
	"stateKey":          "var stateKey = make([]byte, 32)",
	"deployMD":          "var deployMD = \"---\\nname: deploy\\ndescription: Deploy the service\\n---\\nRun scripts/deploy.sh.\\n\"",
	"script":            "var script = []byte(\"#!/bin/sh\\n\")",
	"app":               "var app = vurb.New()",
	"completeLanguages": "func completeLanguages(context.Context, string, map[string]string) ([]string, error) { return nil, nil }",
	"readConfig":        "func readConfig(context.Context) (vurb.Contents, error) { return vurb.Contents{}, nil }",
	"readProfile":       "func readProfile(context.Context, map[string]string) (vurb.Contents, error) { return vurb.Contents{}, nil }",
	"ListProjects":      "type ListProjects struct{ WorkspaceID string }",
	"ProjectList":       "type ProjectList struct{ Projects []struct{ ID, Name string } }",
	"DeleteProject":     "type DeleteProject struct{ ID string }",
}

func init() {
	for _, name := range []string{"listProjects", "greet", "createProject", "deleteProject", "listUsers",
		"banUser", "searchWeb", "searchProducts", "buildReport", "listSprints", "createSprint"} {
		readmePlaceholders[name] = "func " + name + "(context.Context, struct{}) (string, error) { return \"\", nil }"
	}
}

// readmeEmbed finds the folder a //go:embed line of a block names.
var readmeEmbed = regexp.MustCompile(`(?m)^//go:embed ([\w./-]+)$`)

func TestReadmeGoBlocksCompile(t *testing.T) {
	blocks := readmeGoBlocks(t)
	if len(blocks) == 0 {
		t.Fatal("README.md has no ```go block")
	}
	work := readmeWorkspace(t)
	for _, b := range blocks {
		dir := filepath.Join(work, fmt.Sprintf("line%04d", b.line))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, src := range readmeGlue(t, b) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// A //go:embed line names a folder the reader has beside main.go.
		for _, m := range readmeEmbed.FindAllStringSubmatch(b.code, -1) {
			folder := filepath.Join(dir, m[1])
			if err := os.MkdirAll(folder, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(folder, "placeholder.md"), []byte("embedded\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if out, err := readmeGo(work, "vet", "./..."); err != nil {
		t.Errorf("README.md's Go blocks do not build as pasted:\n%s", out)
	}
}

// TestReadmeQuickStartRuns runs the README's first block, the quick start,
// as a stdio server: it answers a session written to its stdin, then exits
// at the end of the input.
func TestReadmeQuickStartRuns(t *testing.T) {
	is := is.New(t)
	first := readmeGoBlocks(t)[0]
	files := readmeGlue(t, first)
	is.Equal(len(files), 1) // the quick start is a whole program
	work := readmeWorkspace(t)
	dir := filepath.Join(work, "quickstart")
	is.NoErr(os.MkdirAll(dir, 0o755))
	for name, src := range files {
		is.NoErr(os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	bin := filepath.Join(work, "server")
	if out, err := readmeGo(work, "build", "-o", bin, "./quickstart"); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"readme","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"weather_get","arguments":{"city":"Paris"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"weather_get","arguments":{"units":"kelvin"}}}`,
	}, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	is.NoErr(cmd.Start())
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
	// What the README says of it: one read-only tool, weather_get, whose
	// schema says city is a required string and units one of two values,
	// and which refuses anything else with a message a model can act on.
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

// TestReadmeTestFileRuns runs the README's complete test file as its
// prose says: `VURBTEST_UPDATE=1 go test -run TestToolsList` once to write
// the golden file, then `go test`.
func TestReadmeTestFileRuns(t *testing.T) {
	var file readmeBlock
	for _, b := range readmeGoBlocks(t) {
		if strings.HasPrefix(b.code, "package ") && strings.Contains(firstLine(b.code), "_test") {
			file = b
		}
	}
	if file.code == "" {
		t.Fatal("README.md has no complete test file")
	}
	work := readmeWorkspace(t)
	dir := filepath.Join(work, "projects")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range readmeGlue(t, file) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, run := range []struct {
		update string // VURBTEST_UPDATE
		args   []string
	}{
		{"1", []string{"test", "-count=1", "-run", "TestToolsList", "./projects"}},
		{"", []string{"test", "-count=1", "./projects"}},
	} {
		if out, err := readmeGoEnv(work, []string{"VURBTEST_UPDATE=" + run.update}, run.args...); err != nil {
			t.Fatalf("VURBTEST_UPDATE=%s go %s: %v\n%s", run.update, strings.Join(run.args, " "), err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata", "tools.json")); err != nil {
		t.Errorf("the golden file was not written: %v", err)
	}
}

// readmeBlock is one ```go block of README.md.
type readmeBlock struct {
	line int    // README line of the block's first line of code
	code string // the lines between the fences
}

func readmeGoBlocks(t *testing.T) []readmeBlock {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var blocks []readmeBlock
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		if end == len(lines) {
			t.Fatalf("README.md:%d: a ```go block that never ends", i+1)
		}
		blocks = append(blocks, readmeBlock{line: i + 2, code: strings.Join(lines[i+1:end], "\n") + "\n"})
		i = end
	}
	return blocks
}

// readmeWorkspace makes a module for the blocks, in a go.work with this
// module and readmeModules, and returns its directory.
func readmeWorkspace(t *testing.T) string {
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
	for _, m := range readmeModules {
		uses = append(uses, filepath.Join(root, m))
	}
	work := t.TempDir()
	files := map[string]string{
		"go.mod":  "module readme\n\n" + goLine + "\n",
		"go.work": goLine + "\n\nuse (\n\t" + strings.Join(uses, "\n\t") + "\n)\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(work, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return work
}

// readmeGo runs the go command in the blocks' module.
func readmeGo(work string, args ...string) ([]byte, error) { return readmeGoEnv(work, nil, args...) }

// readmeGoEnv is readmeGo with env added to the environment.
func readmeGoEnv(work string, env []string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = work
	// The workspace decides the modules; a -mod flag of the caller's
	// GOFLAGS would be refused in workspace mode.
	cmd.Env = append(os.Environ(), "GOWORK="+filepath.Join(work, "go.work"), "GOFLAGS=-buildvcs=false")
	cmd.Env = append(cmd.Env, env...)
	return cmd.CombinedOutput()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// readmeGlue returns the files (name → source) of a block with its glue.
// A //line directive before each piece of the block's own code makes the
// compiler report README.md's lines.
func readmeGlue(t *testing.T, b readmeBlock) map[string]string {
	t.Helper()
	readme, err := filepath.Abs("README.md")
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int) string { return fmt.Sprintf("//line %s:%d\n", readme, line) }
	if strings.HasPrefix(b.code, "package ") {
		name := "main.go"
		if strings.HasSuffix(strings.Fields(firstLine(b.code))[1], "_test") {
			name = "x_test.go"
		}
		return map[string]string{name: at(b.line) + b.code}
	}

	decls, stmts := readmeSplit(t, b)
	var declSrc, stmtSrc strings.Builder
	for _, p := range decls {
		declSrc.WriteString(at(b.line+p.first) + p.text)
	}
	for _, p := range stmts {
		if strings.TrimSpace(p.text) != "" {
			stmtSrc.WriteString(at(b.line+p.first) + p.text)
		}
	}
	names := readmeNames(t, b, declSrc.String(), stmtSrc.String())

	test := names.uses["t"] && !names.declared["t"]
	var body strings.Builder
	body.WriteString(declSrc.String())
	if test {
		body.WriteString("\nfunc TestReadme(t *testing.T) {\n")
	} else {
		body.WriteString("\nfunc main() {\n")
	}
	body.WriteString(stmtSrc.String())
	for _, v := range names.locals {
		body.WriteString("\t_ = " + v + "\n")
	}
	body.WriteString("}\n")

	var placeholders []string
	for name, decl := range readmePlaceholders {
		if names.uses[name] && !names.declared[name] {
			placeholders = append(placeholders, decl)
			readmeUses(t, decl, names.pkgs) // a placeholder's own imports
		}
	}
	slices.Sort(placeholders)
	if test {
		names.pkgs["testing"] = true
	}
	var imports []string
	for pkg := range names.pkgs {
		if path, ok := readmeImports[pkg]; ok && !names.declared[pkg] {
			imports = append(imports, fmt.Sprintf("\t%s %q\n", pkg, path))
		}
	}
	slices.Sort(imports)

	src := "package main\n\nimport (\n" + strings.Join(imports, "") + ")\n\n" +
		strings.Join(placeholders, "\n") + "\n\n" + body.String()
	if test {
		return map[string]string{"main.go": "package main\n\nfunc main() {}\n", "readme_test.go": src}
	}
	return map[string]string{"main.go": src}
}

// readmePiece is a run of a fragment's lines.
type readmePiece struct {
	first int    // its first line, counted from the block's first line (0)
	text  string // its lines
}

// readmeSplit cuts a fragment into its file-level declarations (a func or
// type at column 0, to the end of the declaration) and its statements.
func readmeSplit(t *testing.T, b readmeBlock) (decls, stmts []readmePiece) {
	t.Helper()
	lines := strings.SplitAfter(b.code, "\n")
	for i := 0; i < len(lines); {
		start := i
		if readmeDecl(lines[i]) {
			i = start + readmeDeclLines(t, b, strings.Join(lines[start:], ""))
			decls = append(decls, readmePiece{start, strings.Join(lines[start:i], "")})
			continue
		}
		for i < len(lines) && !readmeDecl(lines[i]) {
			i++
		}
		stmts = append(stmts, readmePiece{start, strings.Join(lines[start:i], "")})
	}
	return decls, stmts
}

// readmeDecl reports whether line begins a file-level declaration.
func readmeDecl(line string) bool {
	for _, kw := range []string{"func ", "type ", "var ", "const "} {
		if strings.HasPrefix(line, kw) {
			return true
		}
	}
	return false
}

// readmeDeclLines returns how many lines the declaration that src begins
// with spans: up to the first semicolon, written or implied by a line's
// end, outside any bracket.
func readmeDeclLines(t *testing.T, b readmeBlock, src string) int {
	t.Helper()
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), nil, 0)
	depth := 0
	for {
		pos, tok, _ := s.Scan()
		switch tok {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		case token.SEMICOLON, token.EOF:
			if depth == 0 || tok == token.EOF {
				return fset.Position(pos).Line
			}
		}
	}
}

// readmeNamesOf is what a fragment names.
type readmeNamesOf struct {
	uses     map[string]bool // identifiers it uses
	pkgs     map[string]bool // identifiers it selects from (x in x.Y)
	declared map[string]bool // identifiers it declares at file level or in main's body
	locals   []string        // variables of main's body
}

// readmeNames parses a fragment's pieces and reports the names it uses and
// declares. It reads syntax only, as goimports does.
func readmeNames(t *testing.T, b readmeBlock, decls, stmts string) readmeNamesOf {
	t.Helper()
	src := "package main\n\n" + decls + "\nfunc main() {\n" + stmts + "}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("README.md:%d: the block does not parse as Go with its glue: %v", b.line, err)
	}
	n := readmeNamesOf{uses: map[string]bool{}, pkgs: map[string]bool{}, declared: map[string]bool{}}
	var visit func(ast.Node) bool
	visit = func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok {
				n.pkgs[id.Name] = true
			}
			ast.Inspect(x.X, visit)
			return false // x.Sel names a member
		case *ast.KeyValueExpr:
			if _, ok := x.Key.(*ast.Ident); !ok {
				ast.Inspect(x.Key, visit)
			}
			ast.Inspect(x.Value, visit)
			return false // an identifier key names a field
		case *ast.Ident:
			n.uses[x.Name] = true
		}
		return true
	}
	ast.Inspect(f, visit)

	var main *ast.FuncDecl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			n.declared[d.Name.Name] = true
			main = d // the last one
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					n.declared[spec.Name.Name] = true
				case *ast.ValueSpec:
					for _, id := range spec.Names {
						n.declared[id.Name] = true
					}
				}
			}
		}
	}
	for _, s := range main.Body.List {
		var ids []*ast.Ident
		switch x := s.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				for _, l := range x.Lhs {
					ids = append(ids, l.(*ast.Ident))
				}
			}
		case *ast.DeclStmt:
			if g, ok := x.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, spec := range g.Specs {
					ids = append(ids, spec.(*ast.ValueSpec).Names...)
				}
			}
		}
		for _, id := range ids {
			n.declared[id.Name] = true
			if id.Name != "_" && !slices.Contains(n.locals, id.Name) {
				n.locals = append(n.locals, id.Name)
			}
		}
	}
	return n
}

// readmeUses adds the packages the Go declaration decl selects from to
// pkgs.
func readmeUses(t *testing.T, decl string, pkgs map[string]bool) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main\n"+decl, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("placeholder %q: %v", decl, err)
	}
	ast.Inspect(f, func(node ast.Node) bool {
		if s, ok := node.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				pkgs[id.Name] = true
			}
		}
		return true
	})
}
