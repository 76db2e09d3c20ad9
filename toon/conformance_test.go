package toon

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// The official TOON fixtures live next to the repository (see
// ../../shared/toon-spec); TOON_FIXTURES points elsewhere.
func fixturesDir(t *testing.T) string {
	dir := os.Getenv("TOON_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "toon-spec", "tests", "fixtures")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("TOON fixtures not found at %s (set TOON_FIXTURES to the spec's tests/fixtures directory): %v", dir, err)
	}
	return dir
}

type fixtureFile struct {
	Version     string        `json:"version"`
	Category    string        `json:"category"`
	Description string        `json:"description"`
	Tests       []fixtureCase `json:"tests"`
}

type fixtureCase struct {
	Name           string          `json:"name"`
	Input          json.RawMessage `json:"input"`
	Expected       json.RawMessage `json:"expected"`
	ShouldError    bool            `json:"shouldError"`
	Options        fixtureOptions  `json:"options"`
	SpecSection    string          `json:"specSection"`
	Note           string          `json:"note"`
	MinSpecVersion string          `json:"minSpecVersion"`
}

type fixtureOptions struct {
	Delimiter    *string `json:"delimiter"`
	Indent       *int    `json:"indent"`
	KeyFolding   *string `json:"keyFolding"`
	FlattenDepth *int    `json:"flattenDepth"`
	Strict       *bool   `json:"strict"`
	ExpandPaths  *string `json:"expandPaths"`
}

// toOptions maps fixture options to ours; an unknown value fails the test
// rather than being silently ignored.
func (f fixtureOptions) toOptions(t *testing.T) []Option {
	var opts []Option
	if f.Delimiter != nil {
		opts = append(opts, WithDelimiter(Delimiter((*f.Delimiter)[0])))
	}
	if f.Indent != nil {
		opts = append(opts, WithIndent(*f.Indent))
	}
	if f.KeyFolding != nil {
		switch *f.KeyFolding {
		case "off":
			opts = append(opts, WithKeyFolding(KeyFoldingOff))
		case "safe":
			opts = append(opts, WithKeyFolding(KeyFoldingSafe))
		default:
			t.Fatalf("unknown keyFolding %q", *f.KeyFolding)
		}
	}
	if f.FlattenDepth != nil {
		opts = append(opts, WithFlattenDepth(*f.FlattenDepth))
	}
	if f.Strict != nil {
		opts = append(opts, WithStrict(*f.Strict))
	}
	if f.ExpandPaths != nil {
		switch *f.ExpandPaths {
		case "off":
			opts = append(opts, WithExpandPaths(ExpandPathsOff))
		case "safe":
			opts = append(opts, WithExpandPaths(ExpandPathsSafe))
		default:
			t.Fatalf("unknown expandPaths %q", *f.ExpandPaths)
		}
	}
	return opts
}

func loadFixtures(t *testing.T, dir string) map[string]fixtureFile {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixture files in %s: %v", dir, err)
	}
	out := map[string]fixtureFile{}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var f fixtureFile
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[filepath.Base(path)] = f
	}
	return out
}

func TestConformanceEncode(t *testing.T) {
	runFixtures(t, "encode", func(t *testing.T, c fixtureCase) {
		out, err := FromJSON(c.Input, c.Options.toOptions(t)...)
		if c.ShouldError {
			if err == nil {
				t.Fatalf("want an error, got output:\n%s", out)
			}
			return
		}
		if err != nil {
			t.Fatalf("FromJSON: %v", err)
		}
		var want string
		if err := json.Unmarshal(c.Expected, &want); err != nil {
			t.Fatalf("expected is not a string: %v", err)
		}
		if string(out) != want {
			t.Fatalf("input %s\n got:\n%s\nwant:\n%s", c.Input, out, want)
		}
	})
}

// runFixtures runs every case of every file of one category as subtests
// and logs how many passed per file.
func runFixtures(t *testing.T, category string, check func(*testing.T, fixtureCase)) {
	dir := filepath.Join(fixturesDir(t), category)
	files := loadFixtures(t, dir)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := files[name]
		if f.Category != category {
			t.Errorf("%s: category %q, want %q", name, f.Category, category)
		}
		passed := 0
		t.Run(name, func(t *testing.T) {
			for _, c := range f.Tests {
				if t.Run(c.Name, func(t *testing.T) { check(t, c) }) {
					passed++
				}
			}
		})
		t.Logf("%s/%s: %d/%d passed", category, name, passed, len(f.Tests))
	}
}

func TestConformanceDecode(t *testing.T) {
	runFixtures(t, "decode", func(t *testing.T, c fixtureCase) {
		var input string
		if err := json.Unmarshal(c.Input, &input); err != nil {
			t.Fatalf("input is not a string: %v", err)
		}
		out, err := ToJSON([]byte(input), c.Options.toOptions(t)...)
		if c.ShouldError {
			if err == nil {
				t.Fatalf("input:\n%s\nwant an error, got %s", input, out)
			}
			t.Logf("error as expected: %v", err)
			return
		}
		if err != nil {
			t.Fatalf("input:\n%s\nToJSON: %v", input, err)
		}
		same, err := sameJSON(out, c.Expected)
		if err != nil {
			t.Fatalf("comparing %s: %v", out, err)
		}
		if !same {
			t.Fatalf("input:\n%s\n got: %s\nwant: %s", input, out, c.Expected)
		}
	})
}
