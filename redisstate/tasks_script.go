package redisstate

import "github.com/redis/go-redis/v9"

// The task store's keys, after the prefix, all under one hash tag so that
// a script may touch them together on a cluster:
//
//	{tasks}:t:<id>   the record's JSON, expiring at its Expires time
//	{tasks}:idx      sorted set of live ids, scored by expiry (Unix ms)
//	{tasks}:meta     hash id -> "<revision>:<bytes>:<caller>"
//	{tasks}:callers  hash caller -> tasks held
//	{tasks}:cbytes   hash caller -> bytes held
//	{tasks}:bytes    bytes held in all
//
// The record's key goes by itself when it expires; its line in idx, meta
// and the counts stays until a script reclaims it, which is why meta
// holds the caller and the size: the record is gone by then.
const taskScriptLib = `
local idx, meta, callers, cbytes, total = KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]

local function parse(m)
  local rev, size, caller = string.match(m, '^(%d+):(%d+):(.*)$')
  return rev, tonumber(size), caller
end

-- account adds n tasks and size bytes to caller's and the store's counts;
-- a caller that holds no task leaves the hashes.
local function account(caller, n, size)
  if redis.call('HINCRBY', callers, caller, n) <= 0 then
    redis.call('HDEL', callers, caller)
    redis.call('HDEL', cbytes, caller)
  else
    redis.call('HINCRBY', cbytes, caller, size)
  end
  redis.call('INCRBY', total, size)
end

-- reclaim forgets at most limit tasks expired by now (Unix ms).
local function reclaim(now, limit)
  local ids = redis.call('ZRANGEBYSCORE', idx, '-inf', now, 'LIMIT', 0, limit)
  for _, id in ipairs(ids) do
    local m = redis.call('HGET', meta, id)
    if m then
      local _, size, caller = parse(m)
      account(caller, -1, -size)
      redis.call('HDEL', meta, id)
    end
    redis.call('ZREM', idx, id)
  end
  return #ids
end

-- fits reports whether caller may add n tasks and size bytes, and what
-- caller holds.
local function fits(caller, n, size)
  local ct = tonumber(redis.call('HGET', callers, caller) or '0')
  local cb = tonumber(redis.call('HGET', cbytes, caller) or '0')
  local ok = redis.call('ZCARD', idx) + n <= tonumber(ARGV[6])
    and tonumber(redis.call('GET', total) or '0') + size <= tonumber(ARGV[7])
    and ct + n <= tonumber(ARGV[8]) and cb + size <= tonumber(ARGV[9])
  local share = ct + n > tonumber(ARGV[8]) or cb + size > tonumber(ARGV[9])
  return ok, share, ct, cb
end

-- room reclaims expired tasks until caller may add n tasks and size
-- bytes; a refusal says whether caller's own share is what is full.
local function room(now, caller, n, size)
  reclaim(now, 64)
  local ok, share, ct, cb = fits(caller, n, size)
  if not ok and reclaim(now, 1000000) > 0 then
    ok, share, ct, cb = fits(caller, n, size)
  end
  if ok then return nil end
  return {'full', share and 1 or 0, ct, cb}
end

local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`

// createTask adds a task unless its id is taken or it does not fit.
//
// KEYS: record, idx, meta, callers, cbytes, bytes.
// ARGV: id, JSON, bytes, caller, expiry (Unix ms), max tasks, max bytes,
// tasks per caller, bytes per caller.
// Answers {"ok"}, {"dup"} or {"full", share, tasks, bytes}.
var createTask = redis.NewScript(taskScriptLib + `
local id, size, caller, exp = ARGV[1], tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
if redis.call('HEXISTS', meta, id) == 1 or redis.call('EXISTS', KEYS[1]) == 1 then
  return {'dup'}
end
local t = now()
if exp <= t then return {'ok'} end -- expired already: nothing to keep
local full = room(t, caller, 1, size)
if full then return full end
redis.call('SET', KEYS[1], ARGV[2], 'PXAT', exp)
redis.call('ZADD', idx, exp, id)
redis.call('HSET', meta, id, '1:' .. size .. ':' .. caller)
account(caller, 1, size)
return {'ok'}
`)

// updateTask replaces a task's JSON if its revision is still the one the
// caller read, and the growth fits the bounds.
//
// KEYS: record, idx, meta, callers, cbytes, bytes.
// ARGV: id, JSON, bytes, revision read, expiry (Unix ms), max tasks,
// max bytes, tasks per caller, bytes per caller.
// Answers {"ok"}, {"gone"}, {"conflict"} or {"full", share, tasks, bytes}.
var updateTask = redis.NewScript(taskScriptLib + `
local id, size, read, exp = ARGV[1], tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
local m = redis.call('HGET', meta, id)
if not m or redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
local rev, old, caller = parse(m)
if rev ~= read then return {'conflict'} end
local grown = size - old
if grown > 0 then
  local full = room(now(), caller, 0, grown)
  if full then return full end
end
redis.call('SET', KEYS[1], ARGV[2], 'PXAT', exp)
redis.call('ZADD', idx, exp, id)
redis.call('HSET', meta, id, (tonumber(rev) + 1) .. ':' .. size .. ':' .. caller)
account(caller, 0, grown)
return {'ok'}
`)
