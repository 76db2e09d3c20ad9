package jsonstr

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// Append must write what json.Marshal writes for any valid UTF-8 string,
// and leave the others, and b, as they were.

func TestAppendIsMarshal(t *testing.T) {
	cases := []string{"", "plain", `quote " and \ backslash`, "<script>&</script>", "\b\f\n\r\t\x00\x1f\x7f",
		"caf\u00e9 \u65e5\u672c \U0001F600", "\u2028\u2029", "bad \xff\xfe utf8 \xe2\x82", "\xed\xa0\x80 surrogate",
		"ends in half a rune \xf0\x9f\x98"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			switch r.IntN(4) {
			case 0:
				b[i] = byte(r.IntN(0x20)) // control characters
			case 1:
				b[i] = byte(0x80 + r.IntN(0x80)) // UTF-8 continuations and leads, valid or not
			default:
				b[i] = byte(0x20 + r.IntN(0x60))
			}
		}
		cases = append(cases, string(b), string(utf8.AppendRune(b, rune(r.IntN(0x110000)))))
	}
	for _, s := range cases {
		checkAppend(t, s)
	}
}

func FuzzAppendIsMarshal(f *testing.F) {
	f.Add("<a href=\"x\">\u2028\xff</a>")
	f.Fuzz(checkAppend)
}

func checkAppend(t *testing.T, s string) {
	got, ok := Append([]byte("x"), s)
	if !utf8.ValidString(s) {
		if ok || string(got) != "x" {
			t.Fatalf("%q is not UTF-8: Append wrote %q, ok %v", s, got, ok)
		}
		return
	}
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !ok || string(got) != "x"+string(want) {
		t.Fatalf("%q: wrote %s (ok %v), json.Marshal %s", s, got, ok, want)
	}
}
