package redisstate

import "github.com/redis/go-redis/v9"

// The task store's keys, after the prefix. A record's key has no hash tag,
// so records spread over a cluster's shards; the bookkeeping shares one
// ({tasks}), so that one script counts the bounds atomically:
//
//	task:<id>         the record, "<revision>:<JSON>", expiring at its Expires time
//	{tasks}:idx       sorted set of live ids, scored by expiry (Unix ms)
//	{tasks}:meta      hash id -> "<bytes>:<caller>", the bytes reserved
//	{tasks}:callers   hash caller -> tasks held
//	{tasks}:cbytes    hash caller -> bytes held
//	{tasks}:bytes     bytes held in all
//	{tasks}:done:<c>  sorted set of caller c's finished ids, scored by
//	                  when they finished (Unix ms)
//
// A record's key goes by itself when it expires; its line in idx, meta
// and the counts stays until a script reclaims it, which is why meta
// holds the caller and the size: the record is gone by then. Every
// script that touches the bookkeeping reclaims what has expired and sets
// its keys to expire with the latest task, so a store left idle leaves
// nothing behind. A caller whose share is full makes room by dropping its
// own finished tasks, oldest first: the scripts forget them and answer
// their ids, whose records the store then deletes.
const taskScriptLib = `
local idx, meta, callers, cbytes, total, done = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]

-- doneKey is the key of caller's finished ids: KEYS[6] names the one of
-- the caller the script is about; reclaim meets others.
local function doneKey(caller)
  return string.sub(idx, 1, #idx - 3) .. 'done:' .. caller
end

local function parse(m)
  local size, caller = string.match(m, '^(%d+):(.*)$')
  return tonumber(size), caller
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
      local size, caller = parse(m)
      account(caller, -1, -size)
      redis.call('HDEL', meta, id)
      redis.call('ZREM', doneKey(caller), id)
    end
    redis.call('ZREM', idx, id)
  end
  return #ids
end

-- forget drops the task id of caller from the bookkeeping.
local function forget(id, caller)
  local m = redis.call('HGET', meta, id)
  if m then
    local size = parse(m)
    account(caller, -1, -size)
    redis.call('HDEL', meta, id)
  end
  redis.call('ZREM', idx, id)
  redis.call('ZREM', done, id)
end

-- fits reports whether caller may add n tasks and size bytes, and what
-- caller holds.
local function fits(caller, n, size, lim)
  local ct = tonumber(redis.call('HGET', callers, caller) or '0')
  local cb = tonumber(redis.call('HGET', cbytes, caller) or '0')
  local ok = redis.call('ZCARD', idx) + n <= tonumber(ARGV[lim])
    and tonumber(redis.call('GET', total) or '0') + size <= tonumber(ARGV[lim + 1])
    and ct + n <= tonumber(ARGV[lim + 2]) and cb + size <= tonumber(ARGV[lim + 3])
  local share = ct + n > tonumber(ARGV[lim + 2]) or cb + size > tonumber(ARGV[lim + 3])
  return ok, share, ct, cb
end

-- room reclaims expired tasks, then drops caller's own finished tasks
-- (never keep), oldest first, until caller may add n tasks and size
-- bytes. It answers the ids it dropped, or a refusal that says whether
-- caller's own share is what is full. The bounds are ARGV[lim] to
-- ARGV[lim + 3].
local function room(now, caller, n, size, lim, keep)
  local dropped = {}
  local ok, share, ct, cb = fits(caller, n, size, lim)
  if not ok and reclaim(now, 1000000) > 0 then
    ok, share, ct, cb = fits(caller, n, size, lim)
  end
  while not ok do
    local oldest = redis.call('ZRANGE', done, 0, 1)
    local id = oldest[1]
    if id == keep then id = oldest[2] end
    if not id then break end
    forget(id, caller)
    table.insert(dropped, id)
    ok, share, ct, cb = fits(caller, n, size, lim)
  end
  if ok then return nil, dropped end
  return {'full', share and 1 or 0, ct - redis.call('ZCARD', done), cb}, dropped
end

-- keep sets the bookkeeping to expire with the latest task.
local function keep()
  local last = redis.call('ZRANGE', idx, -1, -1, 'WITHSCORES')
  if #last == 0 then
    redis.call('DEL', idx, meta, callers, cbytes, total, done)
    return
  end
  for _, k in ipairs({idx, meta, callers, cbytes, total, done}) do
    redis.call('PEXPIREAT', k, last[2])
  end
end

local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`

// reserveTask counts a new task in the bookkeeping, unless its id is
// taken or it does not fit; the record is written after it answers ok.
//
// KEYS: idx, meta, callers, cbytes, bytes, the caller's done.
// ARGV: id, bytes, caller, expiry (Unix ms), max tasks, max bytes,
// tasks per caller, bytes per caller, 1 if the task is finished already.
// Answers {"ok", dropped ids...}, {"past"} (expired already: nothing to
// keep), {"dup"} or {"full", share, unfinished tasks, bytes}.
var reserveTask = redis.NewScript(taskScriptLib + `
local id, size, caller, exp = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local t = now()
reclaim(t, 64)
if redis.call('HEXISTS', meta, id) == 1 then return {'dup'} end
if exp <= t then return {'past'} end
local full, dropped = room(t, caller, 1, size, 5, id)
if full then
  keep()
  return full
end
redis.call('ZADD', idx, exp, id)
redis.call('HSET', meta, id, size .. ':' .. caller)
account(caller, 1, size)
if ARGV[9] == '1' then redis.call('ZADD', done, 'NX', t, id) end
keep()
return {'ok', unpack(dropped)}
`)

// growTask raises what a task reserves to bytes and its expiry to
// expiry, when they are more, if the growth fits; what a task reserves
// never shrinks while it lives, so a record is never larger than what its
// bookkeeping counts, whichever of two concurrent updates wins.
//
// KEYS: idx, meta, callers, cbytes, bytes, the task's caller's done.
// ARGV: id, bytes, expiry (Unix ms), max tasks, max bytes, tasks per
// caller, bytes per caller.
// Answers {"ok", dropped ids...}, {"gone"} or {"full", share,
// unfinished tasks, bytes}.
var growTask = redis.NewScript(taskScriptLib + `
local id, size, exp = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local t = now()
reclaim(t, 64)
local m = redis.call('HGET', meta, id)
if not m then return {'gone'} end
local old, caller = parse(m)
local dropped = {}
if size > old then
  local full
  full, dropped = room(t, caller, 0, size - old, 4, id)
  if full then
    keep()
    return full
  end
  if not redis.call('HGET', meta, id) then return {'gone'} end
  redis.call('HSET', meta, id, size .. ':' .. caller)
  account(caller, 0, size - old)
end
redis.call('ZADD', idx, 'XX', 'GT', exp, id)
keep()
return {'ok', unpack(dropped)}
`)

// finishTask notes that a task has finished: it joins its caller's
// finished tasks, which make room for the caller's new ones.
//
// KEYS: idx, meta, callers, cbytes, bytes, the task's caller's done.
// ARGV: id.
// Answers "ok", or "gone" when the bookkeeping has forgotten the task.
var finishTask = redis.NewScript(taskScriptLib + `
if not redis.call('HGET', meta, ARGV[1]) then return 'gone' end
redis.call('ZADD', done, 'NX', now(), ARGV[1])
keep()
return 'ok'
`)

// writeTask replaces a task's record if its revision is still the one
// the caller read.
//
// KEYS: record.
// ARGV: revision read, JSON, expiry (Unix ms).
// Answers "ok", "gone" or "conflict".
var writeTask = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if not v then return 'gone' end
local rev = string.match(v, '^(%d+):')
if rev ~= ARGV[1] then return 'conflict' end
redis.call('SET', KEYS[1], (tonumber(rev) + 1) .. ':' .. ARGV[2], 'PXAT', ARGV[3])
return 'ok'
`)
