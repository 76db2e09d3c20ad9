package glob

import (
	"strings"
	"testing"
)

// FuzzMatch compares Match with refMatch, an obviously correct but
// exponential recursive matcher, on short inputs.
func FuzzMatch(f *testing.F) {
	for _, seed := range [][2]string{
		{"sprints.**", "sprints"},
		{"**.get", "a.b.get"},
		{"a.**.z", "a.z.z"},
		{"*.*", "a.b"},
		{"task*.get", "tasks.get"},
		{"a*b*c", "aXbYbc"},
		{"*_list.**.*", "users_list.x"},
		{"**.*.**", ""},
		{"a", "a..b"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, key string) {
		if len(pattern) > 40 || len(key) > 40 || strings.Count(key, ".") > 8 {
			return // keep the reference matcher fast
		}
		p, err := Compile(pattern)
		if err != nil {
			return
		}
		want := refMatch(strings.Split(pattern, "."), strings.Split(key, "."))
		if key == "" || strings.Contains("."+key+".", "..") {
			want = false // malformed keys never match
		}
		if got := p.Match(key); got != want {
			t.Fatalf("MustCompile(%q).Match(%q) = %v, want %v", pattern, key, got, want)
		}
	})
}

// refMatch matches key segments against pattern segments by plain recursion.
func refMatch(pattern, key []string) bool {
	if len(pattern) == 0 {
		return len(key) == 0
	}
	if pattern[0] == "**" {
		return refMatch(pattern[1:], key) || len(key) > 0 && refMatch(pattern, key[1:])
	}
	return len(key) > 0 && key[0] != "" && refSegment(pattern[0], key[0]) && refMatch(pattern[1:], key[1:])
}

// refSegment matches one segment where '*' is any run of characters.
func refSegment(pattern, seg string) bool {
	if pattern == "" {
		return seg == ""
	}
	if pattern[0] == '*' {
		return refSegment(pattern[1:], seg) || seg != "" && refSegment(pattern, seg[1:])
	}
	return seg != "" && seg[0] == pattern[0] && refSegment(pattern[1:], seg[1:])
}
