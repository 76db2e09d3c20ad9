package glob

import (
	"testing"

	"github.com/matryer/is"
)

func TestCompileValid(t *testing.T) {
	for _, src := range []string{
		"tasks", "tasks.update", "*", "**", "sprints.**", "**.get", "a.**.z",
		"task*.get", "*_list", "a*b*c", "A-b_9.*", "**.**.x",
	} {
		t.Run(src, func(t *testing.T) {
			is := is.New(t)
			p, err := Compile(src)
			is.NoErr(err)
			is.Equal(p.String(), src) // String gives the pattern back as written
		})
	}
}

func TestCompileInvalid(t *testing.T) {
	for _, tc := range []struct{ src, err string }{
		{"", `glob "": empty pattern`},
		{"tasks..x", `glob "tasks..x": empty segment at position 2`},
		{".tasks", `glob ".tasks": empty segment at position 1`},
		{"tasks.", `glob "tasks.": empty segment at position 2`},
		{".", `glob ".": empty segment at position 1`},
		{"a**b", `glob "a**b": "**" mixed with other text in segment "a**b" at position 1`},
		{"x.***", `glob "x.***": "**" mixed with other text in segment "***" at position 2`},
		{"x.**y", `glob "x.**y": "**" mixed with other text in segment "**y" at position 2`},
		{"tasks.up date", `glob "tasks.up date": invalid character ' ' in segment "up date" at position 2`},
		{"tasks/update", `glob "tasks/update": invalid character '/' in segment "tasks/update" at position 1`},
		{"a.é", `glob "a.é": invalid character 'é' in segment "é" at position 2`},
		{"a.?", `glob "a.?": invalid character '?' in segment "?" at position 2`},
	} {
		t.Run(tc.src, func(t *testing.T) {
			is := is.New(t)
			p, err := Compile(tc.src)
			is.True(p == nil)
			is.True(err != nil)
			is.Equal(err.Error(), tc.err)
		})
	}
}

func TestMustCompilePanics(t *testing.T) {
	is := is.New(t)
	defer func() {
		r := recover()
		err, ok := r.(error)
		is.True(ok) // MustCompile panics with the Compile error
		is.Equal(err.Error(), `glob "a..b": empty segment at position 2`)
	}()
	MustCompile("a..b")
}

func TestCompileFoldsGlobstarRuns(t *testing.T) {
	is := is.New(t)
	p := MustCompile("**.**.**.x.**.**")
	is.Equal(len(p.segs), 3)                 // "**.x.**"
	is.Equal(p.String(), "**.**.**.x.**.**") // but String keeps the source
}
