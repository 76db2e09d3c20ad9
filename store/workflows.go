package store

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"
)

// Instance is one run of a workflow (package workflow): the state it is
// in, whose it is, the move a call has claimed and not yet made, and the
// data handlers attached to it. It encodes to JSON as it is, so a shared
// store can keep it anywhere.
type Instance struct {
	ID      string `json:"id"`
	Machine string `json:"machine"`
	State   string `json:"state"`
	// Owner is whom the instance is bound to: the verified subject, else
	// the session or the process it came through. Never a value the
	// client chose.
	Owner string `json:"owner"`
	// Claim names the call that claimed a move to ClaimTo, which it makes
	// (Commit) when its handler succeeds and drops (Release) when it
	// fails. A claim past ClaimUntil is void: its replica stopped.
	Claim      string    `json:"claim,omitempty"`
	ClaimTo    string    `json:"claimTo,omitempty"`
	ClaimUntil time.Time `json:"claimUntil,omitzero"`
	// Data is what handlers attached, by key, as JSON.
	Data    map[string]json.RawMessage `json:"data,omitempty"`
	Expires time.Time                  `json:"expires"`
}

// Claimed reports whether a call holds a claim on the instance at now.
func (in *Instance) Claimed(now time.Time) bool {
	return in.Claim != "" && now.Before(in.ClaimUntil)
}

// Clone returns a copy of in that shares nothing mutable with it, the
// bytes of its data included.
func (in *Instance) Clone() *Instance {
	c := *in
	c.Data = cloneData(in.Data)
	return &c
}

// cloneData copies data, each value's bytes too.
func cloneData(data map[string]json.RawMessage) map[string]json.RawMessage {
	if data == nil {
		return nil
	}
	out := make(map[string]json.RawMessage, len(data))
	for k, v := range data {
		out[k] = slices.Clone(v)
	}
	return out
}

// The errors of a Workflows store.
var (
	// ErrNoInstance: the store has no such instance, or it expired.
	ErrNoInstance = errors.New("vurb: no such workflow instance")
	// ErrOutOfState: the instance is not in the state a claim starts
	// from, or another call holds a claim on it.
	ErrOutOfState = errors.New("vurb: the workflow instance is not in that state")
	// ErrWorkflowsFull: the store, or the owner's share of it, is full.
	ErrWorkflowsFull = errors.New("vurb: the workflow store is full")
	// ErrInstanceExists: Create was given an id a live instance has.
	ErrInstanceExists = errors.New("vurb: the workflow instance exists already")
)

// Workflows keeps the instances of an app's workflows. A move is made in
// two steps, so that of two calls racing from one state exactly one runs
// its handler: Claim reserves the move atomically before the handler
// runs, and Commit makes it once the handler succeeded, or Release drops
// it when it failed. vurb keeps instances in a MemoryWorkflows by
// default; replicas share one through WithReplicas (redisstate).
type Workflows interface {
	// Create stores in, a new instance; an ID a live instance has is
	// ErrInstanceExists.
	Create(ctx context.Context, in *Instance) error
	// Get returns the live instance id, or ErrNoInstance.
	Get(ctx context.Context, id string) (*Instance, error)
	// Claim reserves a move of instance id for the call named claim, for
	// lease (by the store's clock, so that replicas' clocks do not
	// matter): moves maps each state the call may start from to the
	// state it moves to (an action allowed in several states fires one
	// event from any of them), so that the gate reads and reserves in one
	// round trip. It succeeds only when the instance is in one of those
	// states and no live claim is held on it, and returns the instance as
	// it was; otherwise ErrOutOfState (with the instance), or
	// ErrNoInstance. The lease must outlast the call's handler.
	Claim(ctx context.Context, id string, moves map[string]string, claim string, lease time.Duration) (*Instance, error)
	// Commit makes the move claim reserved, attaching data (merged over
	// the instance's, by key) and keeping the instance until expires. A
	// claim no longer held, or past its lease, is ErrOutOfState.
	Commit(ctx context.Context, id, claim string, data map[string]json.RawMessage, expires time.Time) error
	// Release drops the claim, leaving the instance where it was; a claim
	// no longer held is not an error.
	Release(ctx context.Context, id, claim string) error
}
