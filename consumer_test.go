package vurb_test

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// consumerVersion is the version the modules are published at in the
// test's own module proxy: a pre-release, so that it sorts before any
// real tag, and a new one each run, since the module cache keeps what it
// once extracted for a version.
var consumerVersion = fmt.Sprintf("v0.1.0-consumer.%d", time.Now().UnixNano())

// TestNestedModulesBuildAsAConsumer builds every nested module (otel,
// redisrate, redisstate, the examples, bench) the way a user's build
// would: from a copy outside the repository, with no replace directive,
// requiring the vurb modules at a published version. The "publication" is
// a module proxy on disk (GOPROXY=file://...) holding each module's zip,
// made from the files git tracks, as the Go module mirror would serve
// them once the modules are tagged together. So a nested module that only
// builds because ../ holds the root (a file outside its module, a
// requirement missing from its go.mod) fails here.
//
// It runs the go command on six modules and fetches their dependencies
// through the GOPROXY of the environment: CI runs it with
// VURB_CONSUMER_CHECK=1; it is skipped otherwise.
func TestNestedModulesBuildAsAConsumer(t *testing.T) {
	if os.Getenv("VURB_CONSUMER_CHECK") == "" {
		t.Skip("set VURB_CONSUMER_CHECK=1 to build the nested modules as a consumer would (a minute or more)")
	}
	is := is.New(t)
	files := trackedFiles(t)
	modules := moduleDirs(files)
	proxy := t.TempDir()
	for dir, mod := range modules {
		publish(t, proxy, mod, dir, filesOfModule(files, dir, modules))
	}
	env := append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+goEnv(t, "GOPROXY"),
		"GONOSUMDB=github.com/vurb-go/vurb",
		"GONOSUMCHECK=github.com/vurb-go/vurb",
		"GOFLAGS=-mod=mod",
		"GOWORK=off",
	)
	for dir, mod := range modules {
		if dir == "." {
			continue
		}
		t.Run(strings.ReplaceAll(dir, "/", "-"), func(t *testing.T) {
			work := filepath.Join(t.TempDir(), path.Base(mod))
			for _, f := range filesOfModule(files, dir, modules) {
				must(t, os.MkdirAll(filepath.Dir(filepath.Join(work, f)), 0o755))
				copyFile(t, filepath.Join(dir, f), filepath.Join(work, f))
			}
			var edits []string
			for _, r := range goModReplaces(t, filepath.Join(work, "go.mod")) {
				is.True(slices.Contains(slices.Collect(maps.Values(modules)), r)) // a replace of anything but a vurb module
				edits = append(edits, "-dropreplace="+r, "-require="+r+"@"+consumerVersion)
			}
			runIn(t, work, env, "go", append([]string{"mod", "edit"}, edits...)...)
			runIn(t, work, env, "go", "build", "./...")
			got := runIn(t, work, env, "go", "list", "-m", "github.com/vurb-go/vurb")
			is.Equal(strings.TrimSpace(got), "github.com/vurb-go/vurb "+consumerVersion) // built against the published root
			runIn(t, work, env, "go", "vet", "./...")
		})
	}
}

// trackedFiles are the repository's files as git tracks them, slash paths
// from the root.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "ls-files").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	return strings.Fields(string(out))
}

// moduleDirs maps the directory of each go.mod to its module path.
func moduleDirs(files []string) map[string]string {
	mods := map[string]string{}
	for _, f := range files {
		if path.Base(f) != "go.mod" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for line := range strings.Lines(string(data)) {
			if mod, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
				mods[path.Dir(f)] = strings.TrimSpace(mod)
			}
		}
	}
	return mods
}

// filesOfModule are the files of the module at dir, relative to it: those
// under dir and not under a nested module's directory.
func filesOfModule(files []string, dir string, modules map[string]string) []string {
	var out []string
	for _, f := range files {
		rel := f
		if dir != "." {
			var ok bool
			if rel, ok = strings.CutPrefix(f, dir+"/"); !ok {
				continue
			}
		}
		nested := false
		for other := range modules {
			if other != dir && (dir == "." || strings.HasPrefix(other, dir+"/")) && strings.HasPrefix(f, other+"/") {
				nested = true
			}
		}
		if !nested {
			out = append(out, rel)
		}
	}
	return out
}

// publish writes module mod at consumerVersion into the proxy at dir, in
// the layout of the GOPROXY protocol: list, .info, .mod and .zip.
func publish(t *testing.T, proxy, mod, dir string, files []string) {
	t.Helper()
	at := filepath.Join(proxy, filepath.FromSlash(mod), "@v")
	must(t, os.MkdirAll(at, 0o755))
	must(t, os.WriteFile(filepath.Join(at, "list"), []byte(consumerVersion+"\n"), 0o644))
	info, err := json.Marshal(map[string]any{"Version": consumerVersion, "Time": time.Now().UTC().Format(time.RFC3339)})
	must(t, err)
	must(t, os.WriteFile(filepath.Join(at, consumerVersion+".info"), info, 0o644))
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(at, consumerVersion+".mod"), goMod, 0o644))
	z, err := os.Create(filepath.Join(at, consumerVersion+".zip"))
	must(t, err)
	w := zip.NewWriter(z)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f))
		must(t, err)
		fw, err := w.Create(mod + "@" + consumerVersion + "/" + f)
		must(t, err)
		_, err = fw.Write(data)
		must(t, err)
	}
	must(t, w.Close())
	must(t, z.Close())
}

// goModReplaces are the module paths a go.mod replaces.
func goModReplaces(t *testing.T, goMod string) []string {
	t.Helper()
	out, err := exec.Command("go", "mod", "edit", "-json", goMod).Output()
	must(t, err)
	var m struct {
		Replace []struct{ Old struct{ Path string } }
	}
	must(t, json.Unmarshal(out, &m))
	var paths []string
	for _, r := range m.Replace {
		paths = append(paths, r.Old.Path)
	}
	return paths
}

// goEnv is the value of one go env variable.
func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	must(t, err)
	return strings.TrimSpace(string(out))
}

// runIn runs a command in dir with env and returns its output; it fails
// the test, with the output, when the command fails.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}
