//go:build race

package schema

// raceEnabled: the race detector makes sync.Pool drop items on purpose, so
// allocation counts (validator pools its state) are not meaningful.
const raceEnabled = true
