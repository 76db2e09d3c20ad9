package vurb_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/vurb-go/vurb"
)

// TestConcurrentCalls drives one built app from 16 goroutines; run under
// -race it proves the compiled plan is shared without data races.
func TestConcurrentCalls(t *testing.T) {
	for _, exp := range []vurb.Exposition{vurb.Flat, vurb.Grouped} {
		f := newFixture(vurb.WithExposition(exp))
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for g := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 50 {
					name, args := "projects_create", fmt.Sprintf(`{"workspace_id":"w","name":"n-%d-%d"}`, g, i)
					if exp == vurb.Grouped {
						name, args = "projects", fmt.Sprintf(`{"action":"create","workspace_id":"w","name":"n-%d-%d"}`, g, i)
					}
					res := call(t, f, name, args)
					if want := fmt.Sprintf(`{"id":"p2","name":"n-%d-%d"}`, g, i); text(res) != want {
						errs <- fmt.Errorf("got %s, want %s", text(res), want)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}
