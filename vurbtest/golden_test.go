package vurbtest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/vurbtest"
)

func TestGoldenWritesThenCompares(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	path := filepath.Join(t.TempDir(), "testdata", "tools.json")

	setUpdate(t, true)
	is.True(vurbtest.Update())
	vurbtest.Golden(t, path, newApp(), vurbtest.Serve(vurb.WithIncludeTags("read")))
	data, err := os.ReadFile(path)
	is.NoErr(err)
	is.True(strings.HasPrefix(string(data), "{\n  \"tools\": [\n    {\n      \"annotations\": {"))
	// The schema keeps the server's key order: type, then properties.
	is.True(strings.Contains(string(data), "\"inputSchema\": {\n        \"type\": \"object\",\n        \"properties\": {\n          \"workspace_id\": {"))
	is.True(strings.HasSuffix(string(data), "\n  ]\n}\n"))

	setUpdate(t, false)
	is.True(!vurbtest.Update())
	vurbtest.Golden(t, path, newApp(), vurbtest.Serve(vurb.WithIncludeTags("read"))) // the same listing passes
	for _, rev := range revisions {                                                  // every revision lists the same tools
		vurbtest.Golden(t, path, newApp(), vurbtest.Serve(vurb.WithIncludeTags("read")), vurbtest.Protocol(rev))
	}
	_, errs := failure(t, func(t testing.TB) {
		vurbtest.Golden(t, path, newApp(), vurbtest.Serve(vurb.WithIncludeTags("read"), vurb.WithExcludeTags("write")))
	})
	is.Equal(len(errs), 0)
}

func TestGoldenShowsADiff(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	path := filepath.Join(t.TempDir(), "tools.json")
	setUpdate(t, true)
	vurbtest.Golden(t, path, newApp(), vurbtest.Serve(vurb.WithIncludeTags("read")))
	setUpdate(t, false)

	renamed := vurb.New(vurb.WithName("tracker"))
	projects := renamed.Tool("projects").Describe("Manage projects.")
	vurb.Query(projects, "list", listProjects).Describe("List the projects of a workspace")
	vurb.Query(projects, "names", ok[noInput]("none")).Describe("List project names")
	fatal, errs := failure(t, func(t testing.TB) { vurbtest.Golden(t, path, renamed) })
	is.Equal(fatal, "")
	is.Equal(len(errs), 1)
	for _, want := range []string{
		"vurbtest: tools/list differs from " + path + " (-want +got):\n@@ -",
		"\n-      \"description\": \"Read-only: List projects in a workspace\",\n" +
			"+      \"description\": \"Read-only: List the projects of a workspace\",\n",
		"If the change is intended, accept it with: VURBTEST_UPDATE=1 go test github.com/vurb-go/vurb/vurbtest -run '^TestGoldenShowsADiff$'",
	} {
		is.True(strings.Contains(errs[0], want)) // the message
	}
}

func TestGoldenFailures(t *testing.T) {
	noLeaks(t)
	setUpdate(t, false)
	dir := t.TempDir()
	mustFail(t, func(t testing.TB) {
		vurbtest.Golden(t, filepath.Join(dir, "missing", "tools.json"), newApp())
	}, "does not exist; create it with: VURBTEST_UPDATE=1 go test github.com/vurb-go/vurb/vurbtest -run '^TestGoldenFailures$'")
	mustFail(t, func(t testing.TB) {
		vurbtest.Golden(t, "testdata/tools.json", newApp(), vurbtest.OverHTTP())
	}, "vurbtest: Golden lists tools over the in-memory transport; drop OverHTTP from its options")
}

func TestGoldenFinalLineEnd(t *testing.T) {
	noLeaks(t)
	is := is.New(t)
	path := filepath.Join(t.TempDir(), "tools.json")
	setUpdate(t, true)
	vurbtest.Golden(t, path, newApp())
	setUpdate(t, false)
	data, err := os.ReadFile(path)
	is.NoErr(err)
	is.NoErr(os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "\n", "\r\n")), 0o644))
	vurbtest.Golden(t, path, newApp()) // CRLF line ends read as LF
	is.NoErr(os.WriteFile(path, data[:len(data)-1], 0o644))
	_, errs := failure(t, func(t testing.TB) { vurbtest.Golden(t, path, newApp()) })
	is.Equal(len(errs), 1)
	is.True(strings.Contains(errs[0], "(the lines are equal: only the file's final line end differs)"))
}

func ok[In any](text string) func(ctx context.Context, in In) (string, error) {
	return func(context.Context, In) (string, error) { return text, nil }
}

func TestGoldenFile(t *testing.T) {
	is := is.New(t)
	path := filepath.Join(t.TempDir(), "manifest.json")
	setUpdate(t, true)
	vurbtest.GoldenFile(t, path, []byte("a\nb\n"))
	setUpdate(t, false)
	vurbtest.GoldenFile(t, path, []byte("a\nb\n"))
	_, errs := failure(t, func(t testing.TB) { vurbtest.GoldenFile(t, path, []byte("a\nc\n")) })
	is.Equal(len(errs), 1)
	is.True(strings.HasPrefix(errs[0], "vurbtest: the output differs from "+path+" (-want +got):\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"))
}

func TestUpdateFromTheEnvironment(t *testing.T) {
	is := is.New(t)
	setUpdate(t, false)
	for value, on := range map[string]bool{"1": true, "true": true, "": false, "0": false, "false": false, "yes": false} {
		t.Setenv(vurbtest.UpdateEnv, value)
		is.Equal(vurbtest.Update(), on) // value
	}
}

// setUpdate makes Update report on (or off) for the rest of t, whatever
// the environment said, so that these tests run the same under
// VURBTEST_UPDATE=1.
func setUpdate(t testing.TB, on bool) {
	value := ""
	if on {
		value = "1"
	}
	t.Setenv(vurbtest.UpdateEnv, value)
}
