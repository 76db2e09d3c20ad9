package schema

import (
	"testing"

	"github.com/matryer/is"
)

func TestLeadingString(t *testing.T) {
	for _, tc := range []struct {
		data, want string
		ok         bool
	}{
		{`{"action":"list","x":1}`, "list", true},
		{" \n{ \"action\" :\t\"list\" }", "list", true},
		{`{"action":""}`, "", true},
		{`{"action":"list"`, "list", true}, // a hint: the rest is decoding's to check
		{`{"x":1,"action":"list"}`, "", false},
		{`{"act":"list"}`, "", false},
		{`{"actions":"list"}`, "", false},
		{`{"\u0061ction":"list"}`, "", false},
		{`{"action":"l\u0069st"}`, "", false},
		{`{"action":1}`, "", false},
		{`{"action":"li`, "", false},
		{`["action"]`, "", false},
		{``, "", false},
	} {
		is := is.New(t)
		got, ok := LeadingString([]byte(tc.data), "action")
		is.Equal(ok, tc.ok)            // tc.data
		is.Equal(string(got), tc.want) // tc.data
	}
}
