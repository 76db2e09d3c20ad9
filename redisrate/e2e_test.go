package redisrate_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisrate"
	"github.com/vurb-go/vurb/vurbtest"
)

type echoIn struct {
	Text string `json:"text"`
}

func echo(_ context.Context, in echoIn) (string, error) { return in.Text, nil }

// syncBuffer is a log destination the handlers of concurrent calls share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// replica is one replica of a server: its own app, Store and Redis
// client, with the limit given on the action echo.say.
func replica(t *testing.T, client *redis.Client, log *syncBuffer, limit vurb.RateLimit) *vurb.App {
	t.Helper()
	app := vurb.New(
		vurb.WithRateStore(redisrate.New(client)),
		vurb.WithLogger(slog.New(slog.NewTextHandler(log, nil))),
	)
	vurb.Query(app, "echo.say", echo).RateLimit(limit)
	return app
}

// Two replicas behind a load balancer, each called by a go-sdk client:
// once alice has spent her budget on the first, the second refuses her,
// with the wait until her next token, and bob still has his. With Redis
// stopped, both let every call through and log why.
func TestReplicasHoldOneLimit(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	var log syncBuffer
	limit := vurb.PerCaller(3, time.Minute)
	first, second := replica(t, srv.client(t), &log, limit), replica(t, srv.client(t), &log, limit)
	as := func(app *vurb.App, user string) *vurbtest.Client {
		return vurbtest.New(t, app, vurbtest.Identity{Token: &auth.TokenInfo{UserID: user}})
	}
	aliceFirst, aliceSecond, bobSecond := as(first, "alice"), as(second, "alice"), as(second, "bob")

	for range 3 {
		is.Equal(aliceFirst.CallText("echo_say", echoIn{"hi"}), "hi")
	}
	refusal := aliceSecond.CallError("echo_say", echoIn{"hi"})
	is.Equal(refusal, "[echo_say] rate limit reached (3 calls per minute); retry in 20s, not sooner")
	is.Equal(bobSecond.CallText("echo_say", echoIn{"hi"}), "hi")

	srv.stop()
	for _, c := range []*vurbtest.Client{aliceFirst, aliceSecond} {
		is.Equal(c.CallText("echo_say", echoIn{"through"}), "through")
	}
	if !strings.Contains(log.String(), "rate store failed; the call goes through unlimited") {
		t.Fatalf("no log of the failing store; logged:\n%s", log.String())
	}
}
