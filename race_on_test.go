//go:build race

package vurb_test

// raceEnabled: the race detector changes allocation counts (sync.Pool drops
// items on purpose), so allocation guards skip under it.
const raceEnabled = true
