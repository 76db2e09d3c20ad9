package vurb_test

import (
	"runtime"
	"testing"
)

// TestNewServerIsNotRetained: a stateless deployment may make a server per
// request; the app must not keep them alive.
func TestNewServerIsNotRetained(t *testing.T) {
	app := promptApp() // it has resources, so the app tracks its servers
	app.Build()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for range 50 {
		app.NewServer()
	}
	before := heap()
	for range 2000 {
		app.NewServer()
	}
	after := heap()
	t.Logf("heap before %d KiB, after 2,000 more servers %d KiB", before>>10, after>>10)
	if after > before+2<<20 { // retained servers cost about 8 KiB each: 16 MiB for 2,000
		t.Errorf("2,000 servers kept %d KiB alive", (after-before)>>10)
	}
}
