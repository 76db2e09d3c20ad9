package vurbtest

import "testing"

// SetUpdate makes Update report on for the rest of t, whatever -update
// and the environment say, so that the golden tests of this package run
// the same under go test -update.
func SetUpdate(t testing.TB, on bool) {
	old := *update
	*update = on
	t.Setenv(UpdateEnv, "")
	t.Cleanup(func() { *update = old })
}
