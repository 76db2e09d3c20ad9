package redisstate

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/vurb-go/vurb/store"
)

// WorkflowStore is a store.Workflows kept in Redis: each instance is one
// hash whose key expires with the instance, so every replica sharing the
// Redis and the prefix enforces one state gate, and a claim is one Lua
// script: of two replicas claiming a move from one state at once, one
// finds the other's. Handlers' data is kept as each value's JSON, as it
// came. The store is bounded in instances, in all and per owner, as
// store.MemoryWorkflows is. It is safe for concurrent use; get one from
// Store.Workflows.
type WorkflowStore struct {
	client        redis.UniversalClient
	max, perOwner int
	config
}

var _ store.Workflows = (*WorkflowStore)(nil)

func newWorkflowStore(client redis.UniversalClient, c config) *WorkflowStore {
	share, _ := store.CallerShare(store.DefaultMaxInstances, 0)
	return &WorkflowStore{client: client, max: store.DefaultMaxInstances, perOwner: share, config: c}
}

// The keys, all under the store's hash tag: one slot, so that one script
// moves an instance and counts the bounds, on a cluster too. key is an
// instance's hash; all and owner are sorted sets of instance ids scored
// by when each expires (unix milliseconds), which count the live ones.
func (s *WorkflowStore) key(id string) string         { return s.prefix + "{workflows}:instance:" + id }
func (s *WorkflowStore) allKey() string               { return s.prefix + "{workflows}:all" }
func (s *WorkflowStore) ownerKey(owner string) string { return s.prefix + "{workflows}:owner:" + owner }

// workflowLib reads Redis's clock, so that leases and expiry do not
// depend on the replicas' clocks (Redis before 7 replicates a script that
// reads the clock only by its effects, asked for first), and keeps a
// counting set alive as long as its longest-lived member, never shorter.
const workflowLib = `
if redis.replicate_commands then redis.replicate_commands() end
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function keepAlive(k)
  local top = redis.call('ZREVRANGE', k, 0, 0, 'WITHSCORES')
  if #top == 2 then redis.call('PEXPIREAT', k, top[2]) end
end
`

// createScript stores a new instance (KEYS[1], counted in KEYS[2] and
// KEYS[3]) unless its id is live or a bound is met: ARGV[1] is the id,
// ARGV[2] when it expires, ARGV[3] and ARGV[4] the store's and the owner's
// bounds, then field and value pairs.
var createScript = redis.NewScript(workflowLib + `
local t = now()
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', t)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', t)
if redis.call('EXISTS', KEYS[1]) == 1 then return 'exists' end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 'owner-full' end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'full' end
for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
keepAlive(KEYS[2])
keepAlive(KEYS[3])
return 'ok'
`)

// Create stores in, a new instance.
func (s *WorkflowStore) Create(ctx context.Context, in *store.Instance) error {
	args := []any{in.ID, in.Expires.UnixMilli(), s.max, s.perOwner,
		"machine", in.Machine, "owner", in.Owner, "state", in.State, "expires", in.Expires.UnixMilli()}
	for k, v := range in.Data {
		args = append(args, "d:"+k, string(v))
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	res, err := createScript.Run(ctx, s.client, []string{s.key(in.ID), s.allKey(), s.ownerKey(in.Owner)}, args...).Text()
	switch {
	case err != nil:
		return s.failed(fmt.Sprintf("create workflow instance %q", in.ID), err)
	case res == "exists":
		return fmt.Errorf("%w: %q", store.ErrInstanceExists, in.ID)
	case res == "owner-full":
		return fmt.Errorf("%w: this caller holds %d live instances, its share of the store; finish or let some expire", store.ErrWorkflowsFull, s.perOwner)
	case res == "full":
		return store.ErrWorkflowsFull
	}
	return nil
}

// Get returns the live instance id.
func (s *WorkflowStore) Get(ctx context.Context, id string) (*store.Instance, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	fields, err := s.client.HGetAll(ctx, s.key(id)).Result()
	if err != nil {
		return nil, s.failed(fmt.Sprintf("read workflow instance %q", id), err)
	}
	return instanceOf(id, fields)
}

// claimScript reserves a move of KEYS[1] for the claim ARGV[1] for ARGV[2]
// milliseconds, when no live claim is held and the instance's state is
// one of the from states in the pairs (from, to) that follow; it returns
// the outcome, then the instance's fields as they were.
var claimScript = redis.NewScript(workflowLib + `
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then return {'none'} end
local f = {}
for i = 1, #fields, 2 do f[fields[i]] = fields[i + 1] end
local t = now()
local held = f['claim'] and f['claim'] ~= '' and tonumber(f['claimUntil']) > t
local to
for i = 3, #ARGV, 2 do if ARGV[i] == f['state'] then to = ARGV[i + 1] end end
if not to or held then return {'out', fields} end
redis.call('HSET', KEYS[1], 'claim', ARGV[1], 'claimTo', to, 'claimUntil', t + tonumber(ARGV[2]))
return {'ok', fields}
`)

// Claim reserves a move in one script.
func (s *WorkflowStore) Claim(ctx context.Context, id string, moves map[string]string, claim string, lease time.Duration) (*store.Instance, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	args := make([]any, 0, 2+2*len(moves))
	args = append(args, claim, lease.Milliseconds())
	for from, to := range moves {
		args = append(args, from, to)
	}
	res, err := claimScript.Run(ctx, s.client, []string{s.key(id)}, args...).Slice()
	if err != nil {
		return nil, s.failed(fmt.Sprintf("claim workflow instance %q", id), err)
	}
	if len(res) < 2 {
		return nil, store.ErrNoInstance
	}
	flat, _ := res[1].([]any)
	fields := make(map[string]string, len(flat)/2)
	for i := 0; i+1 < len(flat); i += 2 {
		k, _ := flat[i].(string)
		v, _ := flat[i+1].(string)
		fields[k] = v
	}
	in, err := instanceOf(id, fields)
	if err != nil {
		return nil, err
	}
	if res[0] == "out" {
		return in, store.ErrOutOfState
	}
	return in, nil
}

// commitScript makes the move claim ARGV[1] reserved on KEYS[1] while
// its lease holds, keeps it until ARGV[2] (rescoring it in KEYS[2] and in
// its owner's set, under the prefix ARGV[3]), and sets the field and
// value pairs that follow.
var commitScript = redis.NewScript(workflowLib + `
local f = redis.call('HMGET', KEYS[1], 'claim', 'claimTo', 'claimUntil', 'owner')
if not f[4] then return 'none' end
if ARGV[1] == '' or f[1] ~= ARGV[1] or tonumber(f[3]) <= now() then return 'out' end
redis.call('HSET', KEYS[1], 'state', f[2], 'claim', '', 'claimTo', '', 'claimUntil', '0', 'expires', ARGV[2])
for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
local owner = ARGV[3] .. f[4]
redis.call('ZADD', KEYS[2], 'XX', ARGV[2], ARGV[4])
redis.call('ZADD', owner, 'XX', ARGV[2], ARGV[4])
keepAlive(KEYS[2])
keepAlive(owner)
return 'ok'
`)

// Commit makes the claimed move: one script, the owner's set found in it
// (its key is under the store's hash tag, as the script's own).
func (s *WorkflowStore) Commit(ctx context.Context, id, claim string, data map[string]json.RawMessage, expires time.Time) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	args := []any{claim, expires.UnixMilli(), s.ownerKey(""), id}
	for k, v := range data {
		args = append(args, "d:"+k, string(v))
	}
	res, err := commitScript.Run(ctx, s.client, []string{s.key(id), s.allKey()}, args...).Text()
	switch {
	case err != nil:
		return s.failed(fmt.Sprintf("commit workflow instance %q", id), err)
	case res == "none":
		return store.ErrNoInstance
	case res == "out":
		return store.ErrOutOfState
	}
	return nil
}

// releaseScript drops the claim ARGV[1] on KEYS[1], if it is still held.
var releaseScript = redis.NewScript(`
if ARGV[1] ~= '' and redis.call('HGET', KEYS[1], 'claim') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'claim', '', 'claimTo', '', 'claimUntil', '0')
end
return 'ok'
`)

// Release drops the claim.
func (s *WorkflowStore) Release(ctx context.Context, id, claim string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := releaseScript.Run(ctx, s.client, []string{s.key(id)}, claim).Err(); err != nil {
		return s.failed(fmt.Sprintf("release workflow instance %q", id), err)
	}
	return nil
}

// instanceOf reads an instance's hash; an empty one is none.
func instanceOf(id string, f map[string]string) (*store.Instance, error) {
	if len(f) == 0 {
		return nil, store.ErrNoInstance
	}
	in := &store.Instance{ID: id, Machine: f["machine"], State: f["state"], Owner: f["owner"], Claim: f["claim"], ClaimTo: f["claimTo"]}
	ms := func(k string) time.Time {
		n, _ := strconv.ParseInt(f[k], 10, 64)
		if n == 0 {
			return time.Time{}
		}
		return time.UnixMilli(n)
	}
	in.Expires, in.ClaimUntil = ms("expires"), ms("claimUntil")
	for k, v := range f {
		if key, ok := strings.CutPrefix(k, "d:"); ok {
			if in.Data == nil {
				in.Data = map[string]json.RawMessage{}
			}
			in.Data[key] = json.RawMessage(v)
		}
	}
	return in, nil // Redis expires the key by its own clock
}
