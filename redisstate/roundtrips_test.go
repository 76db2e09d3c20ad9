package redisstate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb"
	"github.com/vurb-go/vurb/redisstate"
	"github.com/vurb-go/vurb/workflow"
)

// roundTrips counts what a go-redis client sends: each command or
// pipeline it writes and waits for is one round trip.
type roundTrips struct{ trips, commands atomic.Int64 }

func (r *roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }

func (r *roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		r.trips.Add(1)
		r.commands.Add(1)
		return next(ctx, cmd)
	}
}

func (r *roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		r.trips.Add(1)
		r.commands.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}

// take returns the counts since the last take and starts again.
func (r *roundTrips) take() (trips, commands int64) {
	return r.trips.Swap(0), r.commands.Swap(0)
}

// executed is the number of commands Redis ran, those inside scripts
// included, from INFO commandstats.
func executed(t *testing.T, c *redis.Client) int64 {
	t.Helper()
	info, err := c.Info(ctx, "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for line := range strings.Lines(info) {
		_, stats, ok := strings.Cut(line, "calls=")
		if !ok || strings.HasPrefix(line, "cmdstat_info:") || strings.HasPrefix(line, "cmdstat_config|resetstat:") {
			continue
		}
		calls, _, _ := strings.Cut(stats, ",")
		v, _ := strconv.ParseInt(calls, 10, 64)
		n += v
	}
	return n
}

// A task's creation and each poll (Get) cost at most two round trips to
// the store, once its scripts are loaded (the first call of a script on
// a node costs one more: EVALSHA, then EVAL). Measured (go test -v -run
// RoundTrips): with every key under {tasks}, Create was 1 round trip and
// 15 commands run by Redis, Get 1 and 1; with the records apart, Create
// is 2 and 20 (the record's SET, and the bookkeeping's expiry), Get 1
// and 1.
func TestTaskCreateAndGetRoundTrips(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	admin := srv.client(t)
	rdb := srv.client(t)
	counter := &roundTrips{}
	rdb.AddHook(counter)
	s := redisstate.New(rdb).Tasks()
	is.NoErr(s.Create(ctx, record("warm", time.Minute))) // loads the scripts
	counter.take()
	is.NoErr(admin.ConfigResetStat(ctx).Err())

	rec := record("alice", time.Minute)
	is.NoErr(s.Create(ctx, rec))
	trips, cmds := counter.take()
	ran := executed(t, admin)
	t.Logf("Create: %d round trips, %d commands sent, %d run by Redis", trips, cmds, ran)
	is.True(trips <= 2)

	is.NoErr(admin.ConfigResetStat(ctx).Err())
	_, err := s.Get(ctx, rec.ID)
	is.NoErr(err)
	trips, cmds = counter.take()
	ran = executed(t, admin)
	t.Logf("Get: %d round trips, %d commands sent, %d run by Redis", trips, cmds, ran)
	is.True(trips <= 2)
}

// Through a served app: a task started by tools/call, then polled with
// tasks/get, as a client does. It logs, and asserts nothing: the handler
// sets a status, an Update, whose cost the store's layout decides.
// Measured: tools/call was 3 round trips (34 commands run), now 5 (43):
// Create's second round trip, and the status's growth counted before
// its write; tasks/get stays 1 (1).
func TestTaskServedCreateAndPollRoundTrips(t *testing.T) {
	t.Parallel()
	srv := startRedis(t)
	admin := srv.client(t)
	rdb := srv.client(t)
	counter := &roundTrips{}
	rdb.AddHook(counter)
	release := make(chan struct{})
	h := replica(t, rdb, bytes.Repeat([]byte{7}, 32), release)
	id := start(t, h, "jobs_slow") // loads the scripts
	close(release)
	poll(t, h, id, status("completed"))
	time.Sleep(50 * time.Millisecond)
	counter.take()

	release = make(chan struct{})
	h = replica(t, rdb, bytes.Repeat([]byte{7}, 32), release)
	is.New(t).NoErr(admin.ConfigResetStat(ctx).Err())
	id = start(t, h, "jobs_slow")
	time.Sleep(50 * time.Millisecond)
	trips, cmds := counter.take()
	t.Logf("tools/call (task created, status set): %d round trips, %d commands sent, %d run by Redis", trips, cmds, executed(t, admin))
	is.New(t).NoErr(admin.ConfigResetStat(ctx).Err())
	rpc(t, h, "tasks/get", id, `"taskId":"`+id+`"`)
	trips, cmds = counter.take()
	t.Logf("tasks/get: %d round trips, %d commands sent, %d run by Redis", trips, cmds, executed(t, admin))
	close(release)
	poll(t, h, id, status("completed"))
}

// A gated call costs the store one round trip when it fires no event (the
// instance read) and two when it fires one (the claim, then the commit),
// once the scripts are loaded; a forged handle costs none. Served through
// an app whose replicas share the store, as WithReplicas serves them.
func TestWorkflowGateRoundTrips(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startRedis(t)
	rdb := srv.client(t)
	counter := &roundTrips{}
	rdb.AddHook(counter)
	m := workflow.New("order", "new").On("new", "pay", "paid").On("paid", "refund", "new").Final("closed").On("paid", "close", "closed")
	app := vurb.New(vurb.WithName("rt"), vurb.WithReplicas(redisstate.New(rdb)), vurb.WithRequestStateKeys(attackKey))
	vurb.Action(app, "order.start", func(ctx context.Context, _ struct{}) (orderHandle, error) {
		run, _ := workflow.From(ctx)
		return orderHandle{Order: run.Handle()}, nil
	}).Starts(m)
	vurb.Query(app, "order.show", func(context.Context, orderHandle) (string, error) { return "shown", nil }).When(m, "new", "paid")
	vurb.Action(app, "order.pay", func(context.Context, orderHandle) (string, error) { return "paid", nil }).When(m, "new").Fires("pay")
	vurb.Action(app, "order.refund", func(context.Context, orderHandle) (string, error) { return "refunded", nil }).When(m, "paid").Fires("refund")
	vurb.Action(app, "order.close", func(context.Context, orderHandle) (string, error) { return "closed", nil }).When(m, "paid").Fires("close")
	call := func(name string, args any) *mcp.CallToolResult {
		raw, _ := json.Marshal(args)
		res, err := app.Call(context.Background(), name, raw)
		is.NoErr(err)
		return res
	}
	var h orderHandle
	raw, _ := json.Marshal(call("order_start", struct{}{}).StructuredContent)
	is.NoErr(json.Unmarshal(raw, &h))
	for range 2 { // load the scripts
		is.True(!call("order_pay", h).IsError)
		is.True(!call("order_refund", h).IsError)
	}
	counter.take()
	is.True(!call("order_show", h).IsError)
	trips, _ := counter.take()
	t.Logf("no event: %d round trip", trips)
	is.Equal(trips, int64(1))
	is.True(!call("order_pay", h).IsError)
	trips, _ = counter.take()
	t.Logf("an event: %d round trips", trips)
	is.Equal(trips, int64(2))
	is.True(call("order_pay", h).IsError) // out of state: the claim alone
	trips, _ = counter.take()
	is.Equal(trips, int64(1))
	is.True(call("order_pay", orderHandle{Order: h.Order[:len(h.Order)-3] + "AAA"}).IsError)
	trips, _ = counter.take()
	is.Equal(trips, int64(0)) // forged: refused before the store
}
