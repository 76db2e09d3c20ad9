//go:build unix

package redisstate_test

import (
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
)

// A Redis that takes DPoP's SET NX and never answers costs a DPoP call
// the store's timeout (250 ms here), then 503, the handler not run; once
// Redis answers again, calls are served.
func TestDPoPThroughAHungStore(t *testing.T) {
	is := is.New(t)
	rs := startRedis(t)
	f := startDPoPFleet(t, rs)
	is.NoErr(rs.Signal(syscall.SIGSTOP))
	start := time.Now()
	status, header, _ := f.call(t, f.urls[2], f.proof(t))
	took := time.Since(start)
	is.NoErr(rs.Signal(syscall.SIGCONT))
	is.Equal(status, http.StatusServiceUnavailable)
	is.True(header.Get("Retry-After") != "")
	is.True(took < 2*time.Second) // the store's timeout, not the client's patience
	is.Equal(f.runs.Load(), int32(0))
	status, _, _ = f.call(t, f.urls[2], f.proof(t))
	is.Equal(status, 200)
}
