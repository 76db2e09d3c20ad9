package redisstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/store"
)

// SessionStore is a store.Sessions kept in Redis: each record is one
// JSON value whose key expires at the ttl its last Save gave, so a
// session opened on one replica is known to every replica that shares the
// Redis and the prefix, and a session nobody renews is gone by itself,
// even when the replica that held it crashed before deleting it. It is
// safe for concurrent use; get one from Store.Sessions.
type SessionStore struct {
	client redis.UniversalClient
	config
}

var _ store.Sessions = (*SessionStore)(nil)

func newSessionStore(client redis.UniversalClient, c config) *SessionStore {
	return &SessionStore{client: client, config: c}
}

// key returns the key of the session id.
func (s *SessionStore) key(id string) string { return s.prefix + "session:" + id }

// Save stores rec, replacing the record of the same id, for ttl from now:
// each save renews it. A ttl below a millisecond is an error, since a
// record kept without one would outlive every replica that could delete
// it.
func (s *SessionStore) Save(ctx context.Context, rec *store.Session, ttl time.Duration) error {
	if ttl < time.Millisecond {
		return fmt.Errorf("redisstate: save session %q: ttl %v; give a positive ttl of a millisecond or more (the session's idle timeout)", rec.ID, ttl)
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return s.failed(fmt.Sprintf("save session %q", rec.ID), err)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, s.key(rec.ID), data, ttl)
		if rec.Caller != "" { // renews its place among its caller's, if it still has one
			p.ZAddXX(ctx, s.callerKey(rec.Caller), redis.Z{Score: float64(time.Now().UnixMilli()), Member: rec.ID})
			p.PExpire(ctx, s.callerKey(rec.Caller), ttl)
		}
		return nil
	})
	if err != nil {
		return s.failed(fmt.Sprintf("save session %q", rec.ID), err)
	}
	return nil
}

// Load returns the record of id as last saved by any replica, or an error
// wrapping store.ErrSessionNotFound when there is none or it expired.
func (s *SessionStore) Load(ctx context.Context, id string) (*store.Session, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	data, err := s.client.Get(ctx, s.key(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("%w: %q", store.ErrSessionNotFound, id)
	}
	if err != nil {
		return nil, s.failed(fmt.Sprintf("load session %q", id), err)
	}
	var rec store.Session
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("redisstate: session %q: the stored record does not decode: %w", id, err)
	}
	return &rec, nil
}

// Delete forgets the record of id on every replica, and its place among
// its caller's sessions; forgetting an unknown one is no error.
func (s *SessionStore) Delete(ctx context.Context, id string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	data, err := s.client.Get(ctx, s.key(id)).Bytes()
	if err != nil && !errors.Is(err, redis.Nil) {
		return s.failed(fmt.Sprintf("delete session %q", id), err)
	}
	var rec store.Session
	caller := ""
	if err == nil && json.Unmarshal(data, &rec) == nil {
		caller = rec.Caller
	}
	_, err = s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, s.key(id))
		if caller != "" {
			p.ZRem(ctx, s.callerKey(caller), id)
		}
		return nil
	})
	if err != nil {
		return s.failed(fmt.Sprintf("delete session %q", id), err)
	}
	return nil
}

// callerKey is the key of the sorted set of caller's sessions, scored by
// when each was last saved (unix milliseconds).
func (s *SessionStore) callerKey(caller string) string { return s.prefix + "callers:" + caller }

// admitScript counts a session among its caller's (KEYS[1]) and trims the
// set to ARGV[4] members, oldest first, never the new one (ARGV[1]); it
// returns the ids trimmed. ARGV[2] is now and ARGV[3] the ttl, both in
// milliseconds: members not renewed for a ttl have expired with their
// records.
var admitScript = redis.NewScript(`
local now, ttl, max = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
redis.call('ZADD', KEYS[1], now, ARGV[1])
local out = {}
local n = redis.call('ZCARD', KEYS[1])
if n > max then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, n - max)) do
    if id ~= ARGV[1] and #out < n - max then
      redis.call('ZREM', KEYS[1], id)
      out[#out + 1] = id
    end
  end
end
redis.call('PEXPIRE', KEYS[1], ttl)
return out
`)

// Admit counts rec among the sessions of rec.Caller, over every replica,
// and returns the ids of the caller's sessions beyond max, saved least
// recently first, which vurb then ends. One Lua script: two replicas
// admitting a caller's sessions at once never both keep them.
func (s *SessionStore) Admit(ctx context.Context, rec *store.Session, max int, ttl time.Duration) ([]string, error) {
	if rec.Caller == "" || max <= 0 {
		return nil, nil
	}
	if ttl < time.Millisecond {
		return nil, fmt.Errorf("redisstate: admit session %q: ttl %v; give a positive ttl of a millisecond or more", rec.ID, ttl)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	evicted, err := admitScript.Run(ctx, s.client, []string{s.callerKey(rec.Caller)},
		rec.ID, time.Now().UnixMilli(), ttl.Milliseconds(), max).StringSlice()
	if err != nil {
		return nil, s.failed(fmt.Sprintf("admit session %q", rec.ID), err)
	}
	return evicted, nil
}
