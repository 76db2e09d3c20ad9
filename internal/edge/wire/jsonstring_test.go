package wire

import (
	"encoding/json"
	"testing"
)

// appendJSONString writes what json.Marshal writes, UTF-8 or not (the
// valid strings are jsonstr's, tested there).
func TestAppendJSONStringIsMarshal(t *testing.T) {
	for _, s := range []string{"", "<b>&\u2028</b>\n", "bad \xff\xfe utf8 \xe2\x82", "\xed\xa0\x80 surrogate"} {
		want, _ := json.Marshal(s)
		if got := appendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Fatalf("%q: wrote %s, json.Marshal %s", s, got[1:], want)
		}
	}
}
