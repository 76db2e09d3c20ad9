package redisstate_test

import (
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/internal/redisserver"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/store"
)

// startSentinel starts a Sentinel set-up of the test's own and returns
// it, and a way to give each replica its client.
func startSentinel(t *testing.T) (*redisserver.Sentinel, replicaClient) {
	s := redisserver.StartSentinel(t)
	return s, func(t *testing.T) redis.UniversalClient {
		rdb := redis.NewFailoverClient(&redis.FailoverOptions{MasterName: redisserver.SentinelMaster,
			SentinelAddrs: []string{s.Addr}, ContextTimeoutEnabled: true})
		t.Cleanup(func() { _ = rdb.Close() })
		return rdb
	}
}

// Through a redis.NewFailoverClient, which finds the master through the
// sentinel, the stores keep their promises.
func TestSentinelKeepsTheStoresPromises(t *testing.T) {
	t.Parallel()
	_, client := startSentinel(t)
	behaves(t, client)
}

// Once the sentinel has promoted the replica, the same store finds the
// new master: a task created before is read and updated after, and new
// tasks and sessions are kept.
func TestSentinelFailoverKeepsTheStoreWorking(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	sentinel, client := startSentinel(t)
	st := redisstate.New(client(t), redisstate.WithTimeout(5*time.Second))
	rec := record("alice", time.Minute)
	is.NoErr(st.Tasks().Create(ctx, rec))
	time.Sleep(100 * time.Millisecond) // the replica copies it
	sentinel.Failover(t)

	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, err = st.Tasks().Update(ctx, rec.ID, func(t *store.Task) error { t.StatusMessage = "after"; return nil }); err == nil {
			break
		}
		t.Logf("while the client follows the failover: %v", err)
	}
	is.NoErr(err)
	got, err := st.Tasks().Get(ctx, rec.ID)
	is.NoErr(err)
	is.Equal(got.StatusMessage, "after")
	is.NoErr(st.Tasks().Create(ctx, record("bob", time.Minute)))
	is.NoErr(st.Sessions().Save(ctx, &store.Session{ID: "s"}, time.Minute))
}
