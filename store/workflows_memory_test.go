package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/vurb-go/vurb/store"
)

func newInstance(id, owner string) *store.Instance {
	return &store.Instance{ID: id, Machine: "checkout", State: "cart", Owner: owner, Expires: time.Now().Add(time.Hour)}
}

// TestMemoryWorkflowsOneOfRacingClaimsWins: 50 calls claim the move out
// of one state at once; exactly one gets it, and until it commits or
// releases nobody else does.
func TestMemoryWorkflowsOneOfRacingClaimsWins(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s := store.NewMemoryWorkflows(0)
	is.NoErr(s.Create(ctx, newInstance("w1", "alice")))
	var won atomic.Int32
	var winner atomic.Value
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			claim := fmt.Sprint("call-", i)
			in, err := s.Claim(ctx, "w1", "cart", "payment", claim, time.Now().Add(time.Minute))
			switch {
			case err == nil:
				won.Add(1)
				winner.Store(claim)
				if in.State != "cart" {
					t.Errorf("the claim returned the instance in %q", in.State)
				}
			case !errors.Is(err, store.ErrOutOfState):
				t.Errorf("a losing claim: %v", err)
			}
		})
	}
	wg.Wait()
	is.Equal(won.Load(), int32(1))
	_, err := s.Claim(ctx, "w1", "cart", "payment", "late", time.Now().Add(time.Minute))
	is.True(errors.Is(err, store.ErrOutOfState)) // held until committed or released
	is.True(errors.Is(s.Commit(ctx, "w1", "not-the-winner", nil, time.Now().Add(time.Hour)), store.ErrOutOfState))
	is.NoErr(s.Commit(ctx, "w1", winner.Load().(string), map[string]json.RawMessage{"cart": json.RawMessage(`"c_1"`)}, time.Now().Add(time.Hour)))
	in, err := s.Get(ctx, "w1")
	is.NoErr(err)
	is.Equal(in.State, "payment")
	is.Equal(string(in.Data["cart"]), `"c_1"`)
	is.Equal(in.Claim, "")
	_, err = s.Claim(ctx, "w1", "cart", "payment", "again", time.Now().Add(time.Minute))
	is.True(errors.Is(err, store.ErrOutOfState)) // it left cart
}

// A released claim leaves the instance where it was, claimable again; a
// claim whose holder stopped (past its time) is void.
func TestMemoryWorkflowsReleaseAndLapse(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s := store.NewMemoryWorkflows(0)
	is.NoErr(s.Create(ctx, newInstance("w1", "alice")))
	_, err := s.Claim(ctx, "w1", "cart", "payment", "a", time.Now().Add(time.Minute))
	is.NoErr(err)
	is.NoErr(s.Release(ctx, "w1", "a"))
	in, _ := s.Get(ctx, "w1")
	is.Equal(in.State, "cart")
	_, err = s.Claim(ctx, "w1", "cart", "payment", "b", time.Now().Add(-time.Second)) // its holder is gone at once
	is.NoErr(err)
	_, err = s.Claim(ctx, "w1", "cart", "payment", "c", time.Now().Add(time.Minute))
	is.NoErr(err) // the lapsed claim held nothing
	is.True(errors.Is(s.Commit(ctx, "w1", "b", nil, time.Now().Add(time.Hour)), store.ErrOutOfState))
}

// Expired instances are gone; one owner fills only its share.
func TestMemoryWorkflowsBounds(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s := store.NewMemoryWorkflows(32) // a share of 16
	old := newInstance("old", "alice")
	old.Expires = time.Now().Add(-time.Second)
	is.NoErr(s.Create(ctx, old))
	_, err := s.Get(ctx, "old")
	is.True(errors.Is(err, store.ErrNoInstance))
	for i := range 16 {
		is.NoErr(s.Create(ctx, newInstance(fmt.Sprint("m", i), "mallory")))
	}
	err = s.Create(ctx, newInstance("m16", "mallory"))
	is.True(errors.Is(err, store.ErrWorkflowsFull))
	is.NoErr(s.Create(ctx, newInstance("a1", "alice"))) // another caller is not refused
	is.True(s.Create(ctx, newInstance("a1", "alice")) != nil)
}
