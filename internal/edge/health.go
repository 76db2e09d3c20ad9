package edge

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/vurb-go/vurb/internal/edge/sessions"
	"github.com/vurb-go/vurb/store"
)

// LivePath and ReadyPath are where ListenAndServe answers liveness and
// readiness, beside /mcp.
const (
	LivePath  = "/livez"
	ReadyPath = "/readyz"
)

// The store states a health answer shows.
const (
	healthStoreNone    = "none"        // no shared store: one process
	healthStoreOK      = "ok"          // the last probe read it
	healthStoreDown    = "unavailable" // the last probe failed
	healthStoreUnknown = "unknown"     // no probe has answered yet
)

// health is the body of a liveness or readiness answer.
type health struct {
	Status   string `json:"status"` // "live", "ready" or "draining"
	Draining bool   `json:"draining"`
	Store    string `json:"store"`
}

// HealthHandler is vurb.App.HealthHandler; see its documentation there.
func (a *Site) HealthHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := health{Draining: a.draining.Load(), Store: a.storeState()}
		code := http.StatusOK
		switch {
		case strings.HasSuffix(r.URL.Path, LivePath):
			h.Status = "live" // while the process answers: a drain is no reason to restart it
		case strings.HasSuffix(r.URL.Path, ReadyPath):
			// A store outage does not make a replica unready: every
			// replica shares the store, so a probe tied to it would
			// empty the pool at once, while sessionless calls and the
			// sessions each replica holds are served through it.
			h.Status = "ready"
			if h.Draining {
				h.Status, code = "draining", http.StatusServiceUnavailable
			}
		default:
			http.Error(w, "vurb: the health handler answers paths ending in "+LivePath+" (liveness) and "+ReadyPath+" (readiness); mount it there", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		if r.Method != http.MethodHead {
			_ = json.NewEncoder(w).Encode(h)
		}
	})
}

// storeState says how the app's shared store last answered, from what
// the session tables' probes found (internal/edge/sessions, resave.go). When none has
// reported lately (a stateless handler has no table), it probes the
// store itself, in the background: a health answer never waits for the
// store.
func (a *Site) storeState() string {
	if a.SessionStore == nil && !a.store.reported() {
		return healthStoreNone // WithSessionStore alone reports through its table
	}
	state, fresh := a.store.state(time.Now())
	if !fresh && a.SessionStore != nil && a.store.startProbe() {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), sessions.ProbeEvery)
			defer cancel()
			_, err := a.SessionStore.Load(ctx, "vurb-health-probe")
			a.store.Found(err)
			a.store.probeDone()
		}()
	}
	return state
}

// storeHealth is what the probes of a shared store last found.
type storeHealth struct {
	mu      sync.Mutex
	at      time.Time // of the last finding; zero: none yet
	ok      bool
	probing bool // a health answer's own probe is under way
	// wipedAt is when the store was last found to have lost its data
	// (restarted empty), or out of reach; wiped checks it now (a session
	// table's marker), nil without one.
	wipedAt time.Time
	wiped   func(ctx context.Context) bool
}

// Recovering reports whether the store may not yet hold again what the
// replicas keep in memory: it lost its data, or was out of reach, within
// the probes' last few periods (each replica saves again what it holds
// at its next probe), or it has just now.
func (s *storeHealth) Recovering(ctx context.Context) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	recent := !s.wipedAt.IsZero() && time.Since(s.wipedAt) < 3*sessions.ProbeEvery
	check := s.wiped
	s.mu.Unlock()
	if recent {
		return true
	}
	if check != nil && check(ctx) {
		s.Lost()
		return true
	}
	return false
}

// Lost records that the store lost its data, or was out of reach.
func (s *storeHealth) Lost() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wipedAt = time.Now()
}

// watch has s check a session table's marker (the first table's).
func (s *storeHealth) watch(wiped func(ctx context.Context) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wiped == nil {
		s.wiped = wiped
	}
}

// Found records what a probe's read of the store returned: not found
// is an answer, so the store is up.
func (s *storeHealth) Found(err error) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.at, s.ok = time.Now(), err == nil || errors.Is(err, store.ErrSessionNotFound)
}

// reported says whether any probe has reported.
func (s *storeHealth) reported() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.at.IsZero()
}

// state is the last finding, and whether it is recent: the tables'
// probes report every sessions.ProbeEvery; half a period more is their lag.
func (s *storeHealth) state(now time.Time) (state string, fresh bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.at.IsZero():
		return healthStoreUnknown, false
	case s.ok:
		state = healthStoreOK
	default:
		state = healthStoreDown
	}
	return state, now.Sub(s.at) <= sessions.ProbeEvery*3/2
}

// startProbe claims the health answers' own probe, if none is under way.
func (s *storeHealth) startProbe() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.probing {
		return false
	}
	s.probing = true
	return true
}

func (s *storeHealth) probeDone() {
	s.mu.Lock()
	s.probing = false
	s.mu.Unlock()
}
