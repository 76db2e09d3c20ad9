package glob

import (
	"testing"

	"github.com/matryer/is"
)

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		yes, no []string
	}{
		{"sprints.get",
			[]string{"sprints.get"},
			[]string{"sprints", "sprints.get.x", "Sprints.get", "sprints.list", "x.sprints.get"}},
		{"sprints.*",
			[]string{"sprints.get", "sprints.list"},
			[]string{"sprints", "sprints.a.b", "tasks.get"}},
		{"sprints.**",
			[]string{"sprints", "sprints.get", "sprints.a.b.c"},
			[]string{"sprint", "tasks.sprints", "sprintsx.get"}},
		{"**",
			[]string{"a", "a.b", "a.b.c.d.e"},
			[]string{""}},
		{"**.get",
			[]string{"get", "a.get", "a.b.get"},
			[]string{"get.a", "a.list", "aget"}},
		{"a.**.z",
			[]string{"a.z", "a.b.z", "a.b.c.z", "a.z.z"},
			[]string{"a", "z", "a.z.b", "b.a.z"}},
		{"*.*",
			[]string{"a.b", "tasks.update"},
			[]string{"a", "a.b.c"}},
		{"*.**.*",
			[]string{"a.b", "a.x.y.b"},
			[]string{"a"}},
		{"admin.users.deactivate",
			[]string{"admin.users.deactivate"},
			[]string{"admin.users", "admin.users.activate", "admin.Users.deactivate"}},
		{"task*.get",
			[]string{"task.get", "tasks.get", "taskboard.get"},
			[]string{"tas.get", "xtasks.get", "tasks.list", "tasks.x.get"}},
		{"*_list",
			[]string{"_list", "users_list"},
			[]string{"users_lists", "users-list", "a.users_list"}},
		{"a*b*c",
			[]string{"abc", "aXbYc", "abbc", "abcbc"},
			[]string{"ab", "acb", "bac", "abcx"}},
		{"**.*_id.*",
			[]string{"user_id.get", "a.b.user_id.get"},
			[]string{"user_id", "userid.get"}},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			is := is.New(t)
			p := MustCompile(tc.pattern)
			for _, key := range tc.yes {
				is.True(p.Match(key)) // key should match
			}
			for _, key := range tc.no {
				is.True(!p.Match(key)) // key should not match
			}
		})
	}
}

func TestMatchRejectsMalformedKeys(t *testing.T) {
	is := is.New(t)
	for _, src := range []string{"**", "*.**", "a.**", "**.b", "a.*.b"} {
		p := MustCompile(src)
		for _, key := range []string{"", ".", "a.", ".b", "a..b", "a.b."} {
			is.True(!p.Match(key)) // malformed keys never match
		}
	}
}

func TestMatchLongPattern(t *testing.T) {
	is := is.New(t)
	// More segments than Match's stack buffer holds.
	src, key := "a", "a"
	for range 40 {
		src += ".*"
		key += ".x"
	}
	p := MustCompile(src + ".**")
	is.True(p.Match(key))
	is.True(p.Match(key + ".y.z"))
	is.True(!p.Match("a.x"))
}

func TestZeroPatternMatchesNothing(t *testing.T) {
	is := is.New(t)
	var p Pattern
	is.True(!p.Match("a"))
	is.True(!p.Covers(MustCompile("a")))
	is.True(MustCompile("a").Covers(&p)) // nothing is vacuously covered
}
