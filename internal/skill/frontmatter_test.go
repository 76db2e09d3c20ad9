package skill

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestSplitFrontmatter(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{"lf", "---\nname: a\n---\nbody", "name: a\n", ""},
		{"crlf", "---\r\nname: a\r\n---\r\nbody", "name: a\n", ""},
		{"closing with blanks", "---\nname: a\n---  \t\nbody", "name: a\n", ""},
		{"closing at the end", "---\nname: a\n---", "name: a\n", ""},
		{"a --- inside a value is not the end", "---\nname: a\nx: |\n  ---x\n---\n", "name: a\nx: |\n  ---x\n", ""},
		{"no front matter", "# Title\n", "", "must begin with YAML front matter"},
		{"opening line with more", "--- x\nname: a\n---\n", "", "must begin with YAML front matter"},
		{"unclosed", "---\nname: a\n", "", "not closed"},
		{"empty text", "", "", "must begin with YAML front matter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got, err := splitFrontmatter(tc.in)
			if tc.err != "" {
				is.True(err != nil && strings.Contains(err.Error(), tc.err))
				return
			}
			is.NoErr(err)
			is.Equal(got, tc.want)
		})
	}
}

// Hosts read front matter by YAML 1.2's core schema; yaml.v3 alone would
// read several of these by YAML 1.1's.
func TestParseFrontmatterCoreSchema(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want any
	}{
		{"v: 0777", int64(777)}, // yaml.v3: 511
		{"v: 0o17", int64(15)},
		{"v: 0x1F", int64(31)},
		{"v: -12", int64(-12)},
		{"v: 1_000", "1_000"},           // yaml.v3: 1000
		{"v: 0b101", "0b101"},           // yaml.v3: 5
		{"v: 2024-01-01", "2024-01-01"}, // yaml.v3: a time
		{"v: yes", "yes"},
		{"v: on", "on"},
		{"v: True", true},
		{"v: FALSE", false},
		{"v: ~", nil},
		{"v:", nil},
		{"v: Null", nil},
		{"v: 1.5", 1.5},
		{"v: 1e3", 1000.0},
		{"v: .5", 0.5},
		{"v: '0777'", "0777"},
		{`v: "true"`, "true"},
		{"v: !!str 12", "12"},
		{"v: !!float 1", 1.0},
		{"v: |\n  a\n  b", "a\nb"},
		{"v: [1, a, null]", []any{int64(1), "a", nil}},
		{"v: {b: c}", map[string]any{"b": "c"}},
		{"a: &x [1]\nv: *x", []any{int64(1)}},
		{"'<<': x\nv: 1", int64(1)}, // a quoted "<<" is a plain key
	} {
		t.Run(tc.yaml, func(t *testing.T) {
			is := is.New(t)
			fm, err := parseFrontmatter(tc.yaml)
			is.NoErr(err)
			is.Equal(fm["v"], tc.want)
		})
	}
}

func TestParseFrontmatterRefuses(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
	for _, tc := range []struct{ name, yaml, err string }{
		{"not a mapping", "- a\n- b", "must be a YAML mapping"},
		{"not YAML", "a: [", "is not YAML"},
		{"integer key", "1: a", "a key must be a string"},
		{"null key", "~: a", "a key must be a string"},
		{"sequence key", "? [a]\n: b", "a key must be a string"},
		{"merge key", "base: &b {x: 1}\nv:\n  <<: *b", `merge keys ("<<")`},
		{"duplicate key", "a: 1\na: 2", `key "a" appears twice`},
		{"infinity", "v: .inf", ".inf is not a JSON number"},
		{"nan", "v: .NaN", "is not a JSON number"},
		{"huge integer", "v: 99999999999999999999", "out of range"},
		{"custom tag", "v: !thing x", "is not one of YAML's core schema"},
		{"binary tag", "v: !!binary aGk=", "is not one of YAML's core schema"},
		{"bad int tag", "v: !!int abc", `"abc" is not a !!int`},
		{"alias bomb", bomb, "more than 10000 values"},
		{"too deep", "v: " + strings.Repeat("[", 70) + strings.Repeat("]", 70), "nested deeper than 64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseFrontmatter(tc.yaml)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v; want it to contain %q", err, tc.err)
			}
		})
	}
}

func TestCheckFrontmatter(t *testing.T) {
	ok := func(extra map[string]any) map[string]any {
		fm := map[string]any{"name": "refunds", "description": "Refund customers"}
		for k, v := range extra {
			fm[k] = v
		}
		return fm
	}
	for _, tc := range []struct {
		name string
		fm   map[string]any
		path string
		err  string
	}{
		{"fine", ok(nil), "acme/refunds", ""},
		{"fine with every field", ok(map[string]any{"license": "MIT", "compatibility": "Go 1.26", "allowed-tools": "Bash",
			"metadata": map[string]any{"version": "1"}, "x-custom": []any{int64(1)}}), "refunds", ""},
		{"no name", map[string]any{"description": "d"}, "refunds", `needs "name"`},
		{"name not a string", ok(map[string]any{"name": int64(1)}), "refunds", `needs "name"`},
		{"upper case name", ok(map[string]any{"name": "Refunds"}), "Refunds", "lowercase letters"},
		{"double hyphen", ok(map[string]any{"name": "a--b"}), "a--b", "no two hyphens"},
		{"leading hyphen", ok(map[string]any{"name": "-a"}), "-a", "not starting or ending"},
		{"65 characters", ok(map[string]any{"name": strings.Repeat("a", 65)}), strings.Repeat("a", 65), "1 to 64"},
		{"name is not the last segment", ok(nil), "acme/refund", `must be the last segment of the skill's path "acme/refund"`},
		{"no description", map[string]any{"name": "refunds"}, "refunds", `needs "description"`},
		{"blank description", ok(map[string]any{"description": "  "}), "refunds", `needs "description"`},
		{"long description", ok(map[string]any{"description": strings.Repeat("é", 1025)}), "refunds", "1025 characters"},
		{"description of 1024 characters", ok(map[string]any{"description": strings.Repeat("é", 1024)}), "refunds", ""},
		{"license not a string", ok(map[string]any{"license": int64(2)}), "refunds", `"license" must be a string`},
		{"empty compatibility", ok(map[string]any{"compatibility": ""}), "refunds", "1 to 500"},
		{"long compatibility", ok(map[string]any{"compatibility": strings.Repeat("x", 501)}), "refunds", "1 to 500"},
		{"metadata not a map", ok(map[string]any{"metadata": "v1"}), "refunds", "mapping of strings to strings"},
		{"metadata value not a string", ok(map[string]any{"metadata": map[string]any{"v": int64(1)}}), "refunds", `metadata "v" must be a string`},
		{"reserved metadata key", ok(map[string]any{"metadata": map[string]any{"io.modelcontextprotocol/x": "y"}}), "refunds", "reserved for MCP extensions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			name, desc, err := checkFrontmatter(tc.fm, tc.path)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v; want it to contain %q", err, tc.err)
				}
				return
			}
			is.NoErr(err)
			is.Equal(name, tc.fm["name"])
			is.Equal(desc, tc.fm["description"])
		})
	}
}

func TestCheckSkillPath(t *testing.T) {
	for _, tc := range []struct{ path, err string }{
		{"git-workflow", ""},
		{"acme/billing/refunds", ""},
		{"acme.io/Team_A/v1.2~x/refunds", ""},
		{"Acme/refunds", "first segment, the URI's authority"},
		{"acme//refunds", `segment ""`},
		{"acme/../refunds", `segment ".."`},
		{"./refunds", `"."`},
		{"acme/b c/refunds", `segment "b c"`},
		{"acme/Refunds", "its last segment is the skill's name"},
		{"", "its last segment is the skill's name"},
		{strings.Repeat("a/", 16) + "x", "more than 16 segments"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			got := checkSkillPath(tc.path)
			if tc.err == "" && got != "" || !strings.Contains(got, tc.err) {
				t.Fatalf("checkSkillPath(%q) = %q; want %q", tc.path, got, tc.err)
			}
		})
	}
}

func TestSkillMIMEType(t *testing.T) {
	is := is.New(t)
	is.Equal(skillMIMEType("SKILL.md", nil), "text/markdown")
	is.Equal(skillMIMEType("scripts/x.PY", nil), "text/x-python")
	is.Equal(skillMIMEType("notes", []byte("plain words")), "text/plain")
	is.Equal(skillMIMEType("data.bin", []byte{0, 1, 2}), "application/octet-stream")
	is.Equal(skillMIMEType("v1.2/README", []byte{0xff}), "application/octet-stream") // the dot is the folder's
}
