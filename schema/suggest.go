package schema

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vurb-go/vurb/internal/suggest"
)

// maxEcho bounds any user text repeated in a message, so that a 100 KB key
// never comes back whole.
const maxEcho = 64

// maxUnknownListed bounds how many unknown names one message lists.
const maxUnknownListed = 10

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func quoteKey(key []byte) string {
	return strconv.Quote(truncate(string(key), maxEcho))
}

// unknownKeys collects the unknown names of one object, for one message.
type unknownKeys struct {
	names []string
	more  int
}

func (u *unknownKeys) add(key []byte) {
	for _, name := range u.names { // a key sent twice is one unknown field
		if name == string(key) {
			return
		}
	}
	if len(u.names) < maxUnknownListed {
		u.names = append(u.names, truncate(string(key), maxEcho))
		return
	}
	u.more++
}

// message says which names were refused, suggests the closest accepted name
// for each, and lists what is accepted, so the model can correct the call.
// msgs words it.
func (u *unknownKeys) message(sh *shape, msgs *Messages) string {
	var b strings.Builder
	if len(u.names) == 1 && u.more == 0 {
		b.WriteString(fmt.Sprintf(msgs.UnknownField, strconv.Quote(u.names[0]), didYouMean(u.names[0], sh.names, msgs)))
	} else {
		parts := make([]string, len(u.names))
		for i, n := range u.names {
			parts[i] = strconv.Quote(n) + didYouMean(n, sh.names, msgs)
		}
		b.WriteString(fmt.Sprintf(msgs.UnknownFields, strings.Join(parts, ", ")))
		if u.more > 0 {
			b.WriteString(fmt.Sprintf(msgs.MoreUnknown, u.more))
		}
	}
	if len(sh.names) == 0 {
		b.WriteString(msgs.NoneAccepted)
	} else {
		b.WriteString(fmt.Sprintf(msgs.Accepted, sh.accepted))
	}
	return b.String()
}

func didYouMean(name string, accepted []string, msgs *Messages) string {
	if s := suggest.Closest(name, accepted); s != "" {
		return fmt.Sprintf(msgs.DidYouMean, s)
	}
	return ""
}
