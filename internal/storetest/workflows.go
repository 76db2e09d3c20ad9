// Package storetest holds what every implementation of a store contract
// (package store) must do, as tests each implementation runs against its
// own: the memory stores in store, the Redis ones in redisstate.
package storetest

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

// Instance is a new workflow instance id of owner, in state "cart".
func Instance(id, owner string) *store.Instance {
	return &store.Instance{ID: id, Machine: "checkout", State: "cart", Owner: owner, Expires: time.Now().Add(time.Hour),
		Data: map[string]json.RawMessage{"n": json.RawMessage(`12345678901234567890`)}}
}

// Workflows runs the contract of store.Workflows against the stores
// replicas returns: n of them sharing one state (n = 1 for a store of
// one process, whose replicas are itself), each new for the test. A store
// of maxInstances (its bound; an owner's share is store.CallerShare's).
func Workflows(t *testing.T, maxInstances int, replicas func(t *testing.T, n int) []store.Workflows) {
	t.Run("one of racing claims wins", func(t *testing.T) {
		is := is.New(t)
		ctx := context.Background()
		rs := replicas(t, 3)
		is.NoErr(rs[0].Create(ctx, Instance("w1", "alice")))
		var won atomic.Int32
		var winner atomic.Value
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Go(func() {
				claim := fmt.Sprint("call-", i)
				in, err := rs[i%len(rs)].Claim(ctx, "w1", map[string]string{"cart": "payment"}, claim, time.Minute)
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
		_, err := rs[1%len(rs)].Claim(ctx, "w1", map[string]string{"cart": "payment"}, "late", time.Minute)
		is.True(errors.Is(err, store.ErrOutOfState)) // held until committed or released
		is.True(errors.Is(rs[0].Commit(ctx, "w1", "call-x", nil, time.Now().Add(time.Hour)), store.ErrOutOfState))
		is.NoErr(rs[2%len(rs)].Commit(ctx, "w1", winner.Load().(string), map[string]json.RawMessage{"cart": json.RawMessage(`{"id":"c_1"}`)}, time.Now().Add(time.Hour)))
		in, err := rs[0].Get(ctx, "w1")
		is.NoErr(err)
		is.Equal(in.State, "payment")
		is.Equal(in.Claim, "")
		is.Equal(string(in.Data["cart"]), `{"id":"c_1"}`)
		is.Equal(string(in.Data["n"]), `12345678901234567890`) // kept as it came
		_, err = rs[0].Claim(ctx, "w1", map[string]string{"cart": "payment"}, "again", time.Minute)
		is.True(errors.Is(err, store.ErrOutOfState)) // it left cart
	})
	t.Run("release and lapse", func(t *testing.T) {
		is := is.New(t)
		ctx := context.Background()
		s := replicas(t, 1)[0]
		is.NoErr(s.Create(ctx, Instance("w1", "alice")))
		is.True(errors.Is(s.Create(ctx, Instance("w1", "alice")), store.ErrInstanceExists)) // an id is one instance's
		_, err := s.Claim(ctx, "w1", map[string]string{"cart": "payment"}, "a", time.Minute)
		is.NoErr(err)
		is.NoErr(s.Release(ctx, "w1", "a"))
		_, err = s.Claim(ctx, "w1", map[string]string{"cart": "payment"}, "b", time.Millisecond) // its holder is gone at once
		is.NoErr(err)
		time.Sleep(5 * time.Millisecond)
		_, err = s.Claim(ctx, "w1", map[string]string{"cart": "payment"}, "c", time.Minute)
		is.NoErr(err) // the lapsed claim held nothing
		is.True(errors.Is(s.Commit(ctx, "w1", "b", nil, time.Now().Add(time.Hour)), store.ErrOutOfState))
		is.NoErr(s.Release(ctx, "w1", "b"))                                               // not its claim: nothing changes
		is.True(errors.Is(s.Commit(ctx, "w1", "c", nil, time.Now().Add(time.Hour)), nil)) // c's claim still holds
		in, _ := s.Get(ctx, "w1")
		is.Equal(in.State, "payment")

		is.NoErr(s.Create(ctx, Instance("w2", "alice")))
		_, err = s.Claim(ctx, "w2", map[string]string{"cart": "payment"}, "e", time.Millisecond)
		is.NoErr(err)
		time.Sleep(5 * time.Millisecond)
		is.True(errors.Is(s.Commit(ctx, "w2", "e", nil, time.Now().Add(time.Hour)), store.ErrOutOfState)) // past its lease, even untaken
		is.True(errors.Is(s.Commit(ctx, "gone", "e", nil, time.Now().Add(time.Hour)), store.ErrNoInstance))
		was, err := s.Claim(ctx, "w1", map[string]string{"cart": "paid"}, "f", time.Minute)
		is.True(errors.Is(err, store.ErrOutOfState))
		is.Equal(was.State, "payment") // the instance as it is, with the refusal
	})
	t.Run("a claim moves from whichever of its states the instance is in", func(t *testing.T) {
		is := is.New(t)
		ctx := context.Background()
		s := replicas(t, 1)[0]
		is.NoErr(s.Create(ctx, Instance("w1", "alice")))
		moves := map[string]string{"cart": "payment", "payment": "paid"}
		was, err := s.Claim(ctx, "w1", moves, "a", time.Minute)
		is.NoErr(err)
		is.Equal(was.State, "cart")
		is.NoErr(s.Commit(ctx, "w1", "a", nil, time.Now().Add(time.Hour)))
		_, err = s.Claim(ctx, "w1", moves, "b", time.Minute)
		is.NoErr(err)
		is.NoErr(s.Commit(ctx, "w1", "b", nil, time.Now().Add(time.Hour)))
		in, err := s.Get(ctx, "w1")
		is.NoErr(err)
		is.Equal(in.State, "paid")
		_, err = s.Claim(ctx, "w1", moves, "c", time.Minute)
		is.True(errors.Is(err, store.ErrOutOfState)) // paid is none of its states
		_, err = s.Claim(ctx, "w1", nil, "d", time.Minute)
		is.True(errors.Is(err, store.ErrOutOfState))
	})
	t.Run("data kept as it came, apart from the caller's", func(t *testing.T) {
		is := is.New(t)
		ctx := context.Background()
		s := replicas(t, 1)[0]
		in := Instance("w1", "alice")
		is.NoErr(s.Create(ctx, in))
		in.Data["n"][0] = 'X' // the caller's bytes are its own
		_, err := s.Claim(ctx, "w1", map[string]string{"cart": "payment"}, "a", time.Minute)
		is.NoErr(err)
		is.NoErr(s.Commit(ctx, "w1", "a", map[string]json.RawMessage{"n": json.RawMessage(`"over"`), "m": json.RawMessage(`[1, 2]`)}, time.Now().Add(time.Hour)))
		got, err := s.Get(ctx, "w1")
		is.NoErr(err)
		is.Equal(string(got.Data["n"]), `"over"`)
		is.Equal(string(got.Data["m"]), `[1, 2]`)
		got.Data["m"][0] = 'X'
		again, _ := s.Get(ctx, "w1")
		is.Equal(string(again.Data["m"]), `[1, 2]`)
	})
	t.Run("expiry and shares", func(t *testing.T) {
		is := is.New(t)
		ctx := context.Background()
		s := replicas(t, 1)[0]
		short := Instance("short", "alice")
		short.Expires = time.Now().Add(50 * time.Millisecond)
		is.NoErr(s.Create(ctx, short))
		time.Sleep(80 * time.Millisecond)
		_, err := s.Get(ctx, "short")
		is.True(errors.Is(err, store.ErrNoInstance))
		_, err = s.Claim(ctx, "short", map[string]string{"cart": "payment"}, "d", time.Minute)
		is.True(errors.Is(err, store.ErrNoInstance))
		share, _ := store.CallerShare(maxInstances, 0)
		for i := range share {
			is.NoErr(s.Create(ctx, Instance(fmt.Sprint("m", i), "mallory")))
		}
		is.True(errors.Is(s.Create(ctx, Instance("one-more", "mallory")), store.ErrWorkflowsFull))
		is.NoErr(s.Create(ctx, Instance("b1", "bob"))) // another caller is not refused
		for i := 2; i < share; i++ {
			is.NoErr(s.Create(ctx, Instance(fmt.Sprint("b", i), "bob")))
		}
		mine := Instance("m-short", "bob") // the last of bob's share
		mine.Expires = time.Now().Add(50 * time.Millisecond)
		is.NoErr(s.Create(ctx, mine))
		is.True(errors.Is(s.Create(ctx, Instance("b-full", "bob")), store.ErrWorkflowsFull))
		time.Sleep(80 * time.Millisecond)
		is.NoErr(s.Create(ctx, Instance("b-after", "bob"))) // its own expired instance made room
	})
}
