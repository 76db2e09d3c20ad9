package vurb_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/store"
)

// sessionOutage is a store.Sessions whose every call fails while down is
// set, as a shared store out of reach does, and which holds nothing
// otherwise.
type sessionOutage struct{ down atomic.Bool }

var errSessionOutage = errors.New("store out of reach")

func (s *sessionOutage) err() error {
	if s.down.Load() {
		return errSessionOutage
	}
	return nil
}

func (s *sessionOutage) Save(context.Context, *store.Session, time.Duration) error {
	return s.err()
}
func (s *sessionOutage) Delete(context.Context, string) error { return s.err() }
func (s *sessionOutage) Admit(context.Context, *store.Session, int, time.Duration) ([]string, error) {
	return nil, s.err()
}
func (s *sessionOutage) Load(context.Context, string) (*store.Session, error) {
	if err := s.err(); err != nil {
		return nil, err
	}
	return nil, store.ErrSessionNotFound
}

// TestAStoreOutageShowsInHealthButKeepsReadiness: the shared store's
// outage is in the health detail, and readiness stays 200 through it,
// since every replica shares the store and a probe tied to it would empty
// the pool at once; once the store answers again, the detail says so.
// Both ways of knowing are held: a stateful handler's session table
// probes the store, and a stateless replica's health answers probe it
// themselves, in the background.
func TestAStoreOutageShowsInHealthButKeepsReadiness(t *testing.T) {
	for _, tc := range []struct {
		name  string
		serve func(app *vurb.App) http.Handler
	}{
		{"session table's probe", func(app *vurb.App) http.Handler { return app.HTTPHandler() }},
		{"stateless replica's own probe", func(app *vurb.App) http.Handler { return app.HTTPHandler(vurb.WithStateless()) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sessions := &sessionOutage{}
			sessions.down.Store(true)
			app := vurb.New(vurb.WithReplicas(store.Replicas{Sessions: sessions}), vurb.WithRequestStateKeys(make([]byte, 32)))
			vurb.Query(app, "ping", func(context.Context, struct{}) (string, error) { return "pong", nil })
			mux := http.NewServeMux()
			mux.Handle("/mcp", tc.serve(app))
			mux.Handle("/", app.HealthHandler())
			srv := httptest.NewServer(mux)
			defer srv.Close()

			// waitStore polls readiness until the detail shows want; every
			// answer on the way is 200 "ready".
			waitStore := func(want string) {
				t.Helper()
				deadline := time.Now().Add(6 * time.Second) // a probe period and its lag, twice
				for {
					p := getProbe(t, srv.URL+"/readyz")
					is.Equal(p.code, http.StatusOK)
					is.Equal(p.body.Status, "ready")
					if p.body.Store == want {
						return
					}
					if time.Now().After(deadline) {
						t.Fatalf("store %q, want %q", p.body.Store, want)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			waitStore("unavailable")
			live := getProbe(t, srv.URL+"/livez")
			is.Equal(live.code, http.StatusOK)
			is.Equal(live.body.Store, "unavailable")
			sessions.down.Store(false)
			waitStore("ok")
		})
	}
}

// TestHealthHandlerAnswersItsTwoPathsOnly: mounted under a prefix it
// answers by the path's end; any other path is 404, saying where to
// mount it; HEAD is answered without a body.
func TestHealthHandlerAnswersItsTwoPathsOnly(t *testing.T) {
	t.Parallel()
	app := vurb.New()
	vurb.Query(app, "ping", func(context.Context, struct{}) (string, error) { return "pong", nil })
	srv := httptest.NewServer(http.StripPrefix("/health", app.HealthHandler()))
	defer srv.Close()
	for _, tc := range []struct {
		method, path string
		code         int
		contentType  string
	}{
		{http.MethodGet, "/health/livez", http.StatusOK, "application/json"},
		{http.MethodGet, "/health/readyz", http.StatusOK, "application/json"},
		{http.MethodHead, "/health/readyz", http.StatusOK, "application/json"},
		{http.MethodGet, "/health/status", http.StatusNotFound, "text/plain; charset=utf-8"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			is := is.New(t)
			req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
			res, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			res.Body.Close()
			is.Equal(res.StatusCode, tc.code)
			is.Equal(res.Header.Get("Content-Type"), tc.contentType)
		})
	}
}
