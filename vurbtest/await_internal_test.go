package vurbtest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// errorsT records Errorf.
type errorsT struct {
	testing.TB
	errors []string
}

func (e *errorsT) Errorf(format string, args ...any) {
	e.errors = append(e.errors, fmt.Sprintf(format, args...))
}

func TestAwaitReportsWhatDoesNotStop(t *testing.T) {
	rec := &errorsT{TB: t}
	release := make(chan struct{})
	await(rec, "the server session", 20*time.Millisecond, func() { <-release })
	close(release)
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "vurbtest: the server session did not stop within 20ms of the test's end") {
		t.Fatalf("errors: %q", rec.errors)
	}
	await(rec, "the HTTP server", 20*time.Millisecond, func() {})
	if len(rec.errors) != 1 {
		t.Fatalf("errors: %q", rec.errors)
	}
}
