// Package suggest finds the name a caller most likely meant, for the "did
// you mean" hints of refused arguments and unknown actions.
package suggest

import "strings"

// maxCompared bounds the names compared, so that a 100 KB key costs no
// more than a short one: a longer name is never close.
const maxCompared = 128

// Closest returns the accepted name nearest to name, or "" if none is near
// enough to be a plausible typo. Case is ignored (Workspace_ID is close to
// workspace_id) and a swap of two letters counts as one edit.
func Closest(name string, accepted []string) string {
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
	if len(a) > maxCompared || len(b) > maxCompared {
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
