package glob

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

// Adversarial inputs for a backtracking matcher. The tests assert results
// only; BenchmarkPathological shows the cost, which is linear in each input
// by construction (Match never revisits a key segment).
var (
	pathologicalPattern = strings.Repeat("**.", 11) + "x"
	pathologicalKey     = strings.TrimSuffix(strings.Repeat("a.", 60), ".")
	// Not folded away like "**.**": alternating segments keep every position.
	alternatingPattern = strings.Repeat("*.**.", 10) + "x"
	wildPattern        = strings.Repeat("a*", 20) + "c*b"
	wildKey            = strings.Repeat("a", 200) + "b"
)

func TestPathological(t *testing.T) {
	is := is.New(t)
	is.True(!MustCompile(pathologicalPattern).Match(pathologicalKey))
	is.True(MustCompile(pathologicalPattern).Match(pathologicalKey + ".x"))
	is.True(!MustCompile(alternatingPattern).Match(pathologicalKey))
	is.True(MustCompile(alternatingPattern).Match(pathologicalKey + ".x"))
	is.True(!MustCompile(wildPattern).Match(wildKey))
	is.True(MustCompile(wildPattern).Match(strings.Repeat("a", 200) + "cb"))
	is.True(!MustCompile(pathologicalPattern).Covers(MustCompile(alternatingPattern + ".**")))
	is.True(MustCompile(pathologicalPattern).Covers(MustCompile(alternatingPattern)))
}

func BenchmarkPathological(b *testing.B) {
	p := MustCompile(pathologicalPattern)
	for b.Loop() {
		if p.Match(pathologicalKey) {
			b.Fatal("unexpected match")
		}
	}
}

func BenchmarkPathologicalAlternating(b *testing.B) {
	p := MustCompile(alternatingPattern)
	for b.Loop() {
		if p.Match(pathologicalKey) {
			b.Fatal("unexpected match")
		}
	}
}

func BenchmarkPathologicalWild(b *testing.B) {
	p := MustCompile(wildPattern)
	for b.Loop() {
		if p.Match(wildKey) {
			b.Fatal("unexpected match")
		}
	}
}

func BenchmarkCoversBudget(b *testing.B) {
	wide := MustCompile("**.a" + strings.Repeat(".*", 20))
	narrow := MustCompile(strings.Repeat("**.a.", 20) + "a" + strings.Repeat(".*", 20))
	for b.Loop() {
		wide.Covers(narrow)
	}
}
