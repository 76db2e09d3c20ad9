package redisstate_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/store"
)

// A session saved through one replica loads through another, as saved;
// a save replaces and renews it; Delete forgets it on both, and deleting
// an unknown one is no error.
func TestSessionSavedLoadedDeleted(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	first, second := redisstate.New(srv.client(t)).Sessions(), redisstate.New(srv.client(t)).Sessions()
	rec := &store.Session{ID: "s1", Subject: "alice", Remote: "10.0.0.1:5000", Version: "2025-11-25",
		Client:       &mcp.Implementation{Name: "inspector", Version: "1.0"},
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}}
	is.NoErr(first.Save(ctx, rec, time.Minute))
	got, err := second.Load(ctx, "s1")
	is.NoErr(err)
	is.Equal(got, rec)

	rec.LogLevel, rec.Initialized = "debug", true
	is.NoErr(second.Save(ctx, rec, time.Hour))
	got, err = first.Load(ctx, "s1")
	is.NoErr(err)
	is.Equal(got.LogLevel, mcp.LoggingLevel("debug"))
	is.True(got.Initialized)
	ttl, err := srv.client(t).PTTL(ctx, redisstate.DefaultPrefix+"session:s1").Result()
	is.NoErr(err)
	is.True(ttl > time.Minute) // renewed to the last save's hour

	is.NoErr(first.Delete(ctx, "s1"))
	_, err = second.Load(ctx, "s1")
	is.True(errors.Is(err, store.ErrSessionNotFound))
	is.NoErr(second.Delete(ctx, "s1"))
}

// A session not saved again within its ttl is gone; a ttl below a
// millisecond is refused rather than kept forever.
func TestSessionExpires(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := redisstate.New(startRedis(t).client(t)).Sessions()
	is.NoErr(s.Save(ctx, &store.Session{ID: "short"}, 100*time.Millisecond))
	_, err := s.Load(ctx, "short")
	is.NoErr(err)
	time.Sleep(150 * time.Millisecond)
	_, err = s.Load(ctx, "short")
	is.True(errors.Is(err, store.ErrSessionNotFound))
	_, err = s.Load(ctx, "never")
	is.True(errors.Is(err, store.ErrSessionNotFound))

	err = s.Save(ctx, &store.Session{ID: "forever"}, 0)
	is.True(err != nil && strings.Contains(err.Error(), "positive ttl"))
}

// Stores of another prefix keep their own tasks and sessions apart.
func TestPrefixesKeepApart(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	a, b := redisstate.New(srv.client(t)), redisstate.New(srv.client(t), redisstate.WithPrefix("other:"))
	is.NoErr(a.Sessions().Save(ctx, &store.Session{ID: "s"}, time.Minute))
	_, err := b.Sessions().Load(ctx, "s")
	is.True(errors.Is(err, store.ErrSessionNotFound))
	rec := record("alice", time.Minute)
	is.NoErr(a.Tasks().Create(ctx, rec))
	_, err = b.Tasks().Get(ctx, rec.ID)
	is.True(errors.Is(err, store.ErrTaskNotFound))
	keys, err := srv.client(t).Keys(ctx, "other:*").Result()
	is.NoErr(err)
	is.Equal(len(keys), 0)
}
