package glob

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestCovers(t *testing.T) {
	for _, tc := range []struct {
		wide, narrow string
		want         bool
	}{
		{"sprints.**", "sprints.*", true},
		{"sprints.*", "sprints.**", false}, // "sprints" itself
		{"sprints.*", "sprints.get", true},
		{"sprints.get", "sprints.*", false},
		{"sprints.**", "sprints", true},
		{"sprints.**", "sprints.a.**.b", true},
		{"sprints.**", "sprint*.get", false},
		{"*.get", "**.get", false}, // "get" and "a.b.get"
		{"**.get", "*.get", true},
		{"**.get", "a.**.get", true},
		{"**", "a", true},
		{"**", "*.*.*", true},
		{"**", "**.x.**", true},
		{"**", "task*.*_list", true},
		{"a.b", "a.b", true},
		{"a.*", "a.*", true},
		{"**.x", "**.**.x", true},
		{"**.**.x", "**.x", true},
		{"*.**", "**", true}, // keys are never empty
		{"*.*.**", "**", false},
		{"*.**", "**.*", true},
		{"**.*", "*.**", true},
		{"a.**.b", "a.b", true},
		{"a.**.b", "a.*.b", true},
		{"a.**.b", "a.**.b.**.b", true},
		{"a.**.b", "a.**.b.**", false},
		{"**.a.*.b.**", "**.a.**.b.**", false}, // "a.b"
		{"**.a.**.b.**", "**.a.*.b.**", true},
		{"**.a.*.*.**.b", "**.a.**.c.b", false}, // "a.c.b"
		{"**.a.*.*.**.b", "**.a.*.**.c.b", true},
		{"*.*", "*.**", false},
		{"*.a", "*.b", false},
		{"a.*.c", "*.b.c", false},
		// The wide pattern may need to pick its match after seeing the key.
		{"**.a.*", "**.a.a", true},
		{"**.a.*.*", "**.a.a.a", true},
		{"**.a.*.*", "a.**.a.a", false},
		{"**.a.**.a.**", "**.a.a.**", true},
		{"**.a.*.a.**", "**.a.a.a.**", true},
		// Within-segment wildcards.
		{"task*.get", "tasks.get", true},
		{"task*.get", "task*.get", true},
		{"task*.get", "tasks*.get", true},
		{"task*.get", "*.get", false},
		{"*.get", "task*.get", true},
		{"**", "*_list", true},
		{"*_list", "users_list", true},
		{"*_list", "*s_list", true},
		{"*_list", "*_lists", false},
		{"a*", "a*b*c", true},
		{"a*c", "a*b*c", true},
		{"a*b*c", "a*c", false},
		{"admin.*", "admin.*_list", true},
		{"admin.*_list", "admin.*", false},
	} {
		t.Run(tc.wide+"⊇"+tc.narrow, func(t *testing.T) {
			is := is.New(t)
			is.Equal(MustCompile(tc.wide).Covers(MustCompile(tc.narrow)), tc.want)
		})
	}
}

// TestCoversMatchesBruteForce checks Covers against every key up to a length
// over a small alphabet, for all short patterns built from literal, "*" and
// "**" segments. "z" appears in no pattern, so it plays the fresh segment.
// Covers must be exact here: false exactly when some key is a counterexample.
func TestCoversMatchesBruteForce(t *testing.T) {
	patterns := allPatterns([]string{"a", "b", "*", "**"}, 3)
	keys := allKeys([]string{"a", "b", "z"}, 8)
	matched := matchTable(patterns, keys)
	for i, wide := range patterns {
		for j, narrow := range patterns {
			counter := counterexample(matched[i], matched[j], keys)
			got := wide.Covers(narrow)
			if got != (counter == "") {
				t.Fatalf("%q.Covers(%q) = %v, counterexample %q", wide, narrow, got, counter)
			}
		}
	}
}

// TestCoversSoundWithWildcards checks that Covers never claims a cover that
// some key refutes when within-segment wildcards are involved, where it may
// be conservative.
func TestCoversSoundWithWildcards(t *testing.T) {
	patterns := allPatterns([]string{"a", "*", "**", "a*", "*b", "a*b"}, 2)
	keys := allKeys([]string{"a", "b", "ab", "ba", "aab", "z"}, 4)
	matched := matchTable(patterns, keys)
	for i, wide := range patterns {
		for j, narrow := range patterns {
			if !wide.Covers(narrow) {
				continue
			}
			if counter := counterexample(matched[i], matched[j], keys); counter != "" {
				t.Fatalf("%q.Covers(%q) = true, but %q refutes it", wide, narrow, counter)
			}
		}
	}
}

func TestCoversGlobstarHeavyStaysSmall(t *testing.T) {
	is := is.New(t)
	wide := MustCompile(strings.Repeat("**.a.", 10) + "**")
	narrow := MustCompile(strings.Repeat("*.**.a.", 12) + "x")
	ok, spent := covers(wide.segs, narrow.segs, new(int))
	is.True(ok)
	is.True(spent < 1000) // explored states, far below coverBudget
}

// TestCoversBudget uses a pair whose simulation needs exponentially many
// sets: p must remember where every recent "a" was. Past the budget Covers
// answers false, which is wrong here but safe for a shadowing check.
func TestCoversBudget(t *testing.T) {
	is := is.New(t)
	wide := MustCompile("**.a" + strings.Repeat(".*", 20))
	narrow := MustCompile(strings.Repeat("**.a.", 20) + "a" + strings.Repeat(".*", 20))
	ok, spent := covers(wide.segs, narrow.segs, new(int))
	is.True(!ok)
	is.Equal(spent, coverBudget)
	// Shorter runs of "*" fit the budget and are decided exactly.
	wide = MustCompile("**.a.*.*.*")
	narrow = MustCompile(strings.Repeat("**.a.", 20) + "a.*.*.*")
	is.True(wide.Covers(narrow))
}

// allPatterns compiles every pattern of 1..maxLen segments drawn from segs.
func allPatterns(segs []string, maxLen int) []*Pattern {
	var out []*Pattern
	for _, src := range sequences(segs, maxLen) {
		out = append(out, MustCompile(src))
	}
	return out
}

// allKeys lists every key of 1..maxLen segments drawn from segs.
func allKeys(segs []string, maxLen int) []string { return sequences(segs, maxLen) }

// sequences joins every sequence of 1..maxLen items from alphabet with dots.
func sequences(alphabet []string, maxLen int) []string {
	var out, layer []string
	layer = []string{""}
	for range maxLen {
		var next []string
		for _, prefix := range layer {
			for _, s := range alphabet {
				if prefix == "" {
					next = append(next, s)
				} else {
					next = append(next, prefix+"."+s)
				}
			}
		}
		out = append(out, next...)
		layer = next
	}
	return out
}

// matchTable records, for each pattern, which keys it matches.
func matchTable(patterns []*Pattern, keys []string) [][]bool {
	table := make([][]bool, len(patterns))
	for i, p := range patterns {
		table[i] = make([]bool, len(keys))
		for k, key := range keys {
			table[i][k] = p.Match(key)
		}
	}
	return table
}

// counterexample returns a key matched by narrow but not by wide, or "".
func counterexample(wide, narrow []bool, keys []string) string {
	for k, key := range keys {
		if narrow[k] && !wide[k] {
			return key
		}
	}
	return ""
}
