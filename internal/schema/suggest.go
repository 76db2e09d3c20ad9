package schema

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
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
	if s := closest(name, accepted); s != "" {
		return fmt.Sprintf(msgs.DidYouMean, s)
	}
	return ""
}

// Closest returns the accepted name nearest to name, or "" if none is near
// enough to be a plausible typo (see closest): for "did you mean" hints
// outside a schema, such as a grouped tool's actions.
func Closest(name string, accepted []string) string { return closest(name, accepted) }

// closest returns the accepted name nearest to name, or "" if none is near
// enough to be a plausible typo. Case is ignored (Workspace_ID is close to
// workspace_id) and a swap of two letters counts as one edit.
func closest(name string, accepted []string) string {
	best, bestD := "", -1
	ln := strings.ToLower(name)
	for _, a := range accepted {
		la := strings.ToLower(a)
		limit := min(len(ln), len(la)) / 3
		if limit < 1 {
			limit = 1
		}
		if d := editDistance(ln, la); d <= limit && (bestD < 0 || d < bestD) {
			best, bestD = a, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b,
// in bytes: insertions, deletions, substitutions and adjacent swaps.
func editDistance(a, b string) int {
	if len(a) > 2*maxEcho || len(b) > 2*maxEcho {
		return max(len(a), len(b)) // never close; keeps the cost bounded
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
