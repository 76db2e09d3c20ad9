package redisstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
)

// SessionStore is a vurb.SessionStore kept in Redis: each record is one
// JSON value whose key expires at the ttl its last Save gave, so a
// session opened on one replica is known to every replica that shares the
// Redis and the prefix, and a session nobody renews is gone by itself,
// even when the replica that held it crashed before deleting it. It is
// safe for concurrent use; get one from Store.Sessions.
type SessionStore struct {
	client redis.UniversalClient
	config
}

var _ vurb.SessionStore = (*SessionStore)(nil)

func newSessionStore(client redis.UniversalClient, c config) *SessionStore {
	return &SessionStore{client: client, config: c}
}

// key returns the key of the session id.
func (s *SessionStore) key(id string) string { return s.prefix + "session:" + id }

// Save stores rec, replacing the record of the same id, for ttl from now:
// each save renews it. A ttl below a millisecond is an error, since a
// record kept without one would outlive every replica that could delete
// it.
func (s *SessionStore) Save(ctx context.Context, rec *vurb.SessionRecord, ttl time.Duration) error {
	if ttl < time.Millisecond {
		return fmt.Errorf("redisstate: save session %q: ttl %v; give a positive ttl of a millisecond or more (the session's idle timeout)", rec.ID, ttl)
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return s.failed(fmt.Sprintf("save session %q", rec.ID), err)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := s.client.Set(ctx, s.key(rec.ID), data, ttl).Err(); err != nil {
		return s.failed(fmt.Sprintf("save session %q", rec.ID), err)
	}
	return nil
}

// Load returns the record of id as last saved by any replica, or an error
// wrapping vurb.ErrSessionNotFound when there is none or it expired.
func (s *SessionStore) Load(ctx context.Context, id string) (*vurb.SessionRecord, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	data, err := s.client.Get(ctx, s.key(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("%w: %q", vurb.ErrSessionNotFound, id)
	}
	if err != nil {
		return nil, s.failed(fmt.Sprintf("load session %q", id), err)
	}
	var rec vurb.SessionRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("redisstate: session %q: the stored record does not decode: %w", id, err)
	}
	return &rec, nil
}

// Delete forgets the record of id on every replica; forgetting an unknown
// one is no error.
func (s *SessionStore) Delete(ctx context.Context, id string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := s.client.Del(ctx, s.key(id)).Err(); err != nil {
		return s.failed(fmt.Sprintf("delete session %q", id), err)
	}
	return nil
}
