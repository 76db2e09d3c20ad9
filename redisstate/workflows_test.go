package redisstate_test

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
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/store"
)

func wfInstance(id, owner string) *store.Instance {
	return &store.Instance{ID: id, Machine: "checkout", State: "cart", Owner: owner, Expires: time.Now().Add(time.Hour),
		Data: map[string]json.RawMessage{"n": json.RawMessage(`12345678901234567890`)}}
}

// TestWorkflowClaimsRaceAcrossReplicas: three replicas, each with its own
// Redis client, and 50 calls claiming the move out of one state at once:
// exactly one claim is granted, over all of them.
func TestWorkflowClaimsRaceAcrossReplicas(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	rs := startRedis(t)
	var replicas []*redisstate.WorkflowStore
	for range 3 {
		replicas = append(replicas, redisstate.New(rs.client(t)).App("shop").Workflows())
	}
	is.NoErr(replicas[0].Create(ctx, wfInstance("w1", "alice")))
	var won atomic.Int32
	var winner atomic.Value
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			claim := fmt.Sprint("call-", i)
			in, err := replicas[i%3].Claim(ctx, "w1", "cart", "payment", claim, time.Now().Add(time.Minute))
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
	is.True(errors.Is(replicas[1].Commit(ctx, "w1", "call-x", nil, time.Now().Add(time.Hour)), store.ErrOutOfState))
	is.NoErr(replicas[2].Commit(ctx, "w1", winner.Load().(string), map[string]json.RawMessage{"cart": json.RawMessage(`{"id":"c_1"}`)}, time.Now().Add(time.Hour)))
	in, err := replicas[0].Get(ctx, "w1")
	is.NoErr(err)
	is.Equal(in.State, "payment")
	is.Equal(in.Claim, "")
	is.Equal(string(in.Data["cart"]), `{"id":"c_1"}`)
	is.Equal(string(in.Data["n"]), `12345678901234567890`) // kept as it came
	_, err = replicas[1].Claim(ctx, "w1", "cart", "payment", "again", time.Now().Add(time.Minute))
	is.True(errors.Is(err, store.ErrOutOfState))
}

// A released claim leaves the instance claimable; a lapsed claim holds
// nothing; an expired instance is gone; one owner fills only its share.
func TestWorkflowStoreReleaseLapseExpiryAndShare(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s := redisstate.New(startRedis(t).client(t)).Workflows()
	is.NoErr(s.Create(ctx, wfInstance("w1", "alice")))
	is.True(s.Create(ctx, wfInstance("w1", "alice")) != nil) // an id is one instance's
	_, err := s.Claim(ctx, "w1", "cart", "payment", "a", time.Now().Add(time.Minute))
	is.NoErr(err)
	is.NoErr(s.Release(ctx, "w1", "a"))
	_, err = s.Claim(ctx, "w1", "cart", "payment", "b", time.Now().Add(-time.Second))
	is.NoErr(err)
	_, err = s.Claim(ctx, "w1", "cart", "payment", "c", time.Now().Add(time.Minute))
	is.NoErr(err) // b's claim had lapsed
	in, _ := s.Get(ctx, "w1")
	is.Equal(in.State, "cart")

	short := wfInstance("short", "alice")
	short.Expires = time.Now().Add(50 * time.Millisecond)
	is.NoErr(s.Create(ctx, short))
	time.Sleep(80 * time.Millisecond)
	_, err = s.Get(ctx, "short")
	is.True(errors.Is(err, store.ErrNoInstance))
	_, err = s.Claim(ctx, "short", "cart", "payment", "d", time.Now().Add(time.Minute))
	is.True(errors.Is(err, store.ErrNoInstance))

	share, _ := store.CallerShare(store.DefaultMaxInstances, 0)
	for i := range share {
		is.NoErr(s.Create(ctx, wfInstance(fmt.Sprint("m", i), "mallory")))
	}
	is.True(errors.Is(s.Create(ctx, wfInstance("one-more", "mallory")), store.ErrWorkflowsFull))
	is.NoErr(s.Create(ctx, wfInstance("b1", "bob"))) // another caller is not refused
}
