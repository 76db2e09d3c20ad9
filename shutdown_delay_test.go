package vurb_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
)

// With WithDrainDelay a draining app goes on serving for the delay, its
// readiness 503 on its own port, so that a balancer's check sees it
// rather than a closed port; then it stops accepting. Both ways of
// serving.
func TestDrainDelayShowsReadinessOffOnTheServedPort(t *testing.T) {
	for _, way := range serveWays {
		t.Run(way.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			app := vurb.New(vurb.WithDrainDelay(600 * time.Millisecond))
			vurb.Query(app, "docs.read", func(context.Context, struct{}) (string, error) { return "docs", nil })
			s := way.serve(t, app, 10*time.Second)
			is.Equal(getProbe(t, s.base+"/readyz").code, http.StatusOK)
			began := time.Now()
			stopped := s.drain()
			deadline := time.Now().Add(5 * time.Second)
			ready := getProbe(t, s.base+"/readyz") // the served port itself, still open
			for ready.code == http.StatusOK && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
				ready = getProbe(t, s.base+"/readyz")
			}
			is.Equal(ready.code, http.StatusServiceUnavailable)
			is.Equal(ready.body.Status, "draining")
			is.NoErr(<-stopped)
			is.True(time.Since(began) >= 600*time.Millisecond) // it waited out the delay
			_, err := http.Get(s.base + "/readyz")
			is.True(err != nil) // then stopped accepting
		})
	}
}
