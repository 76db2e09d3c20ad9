package redisrate

import "github.com/redis/go-redis/v9"

// take is the token bucket, run by Redis atomically: no other command
// runs between its read of the bucket and its write, so the replicas that
// share a bucket never spend the same token twice.
//
// KEYS[1] is the bucket: a hash of its tokens (t), the time they were
// counted (at, microseconds by the server's clock) and the rate they
// refill at (c calls per p nanoseconds, at most b tokens). ARGV is the
// rate of this call: calls, per (nanoseconds) and burst.
//
// The tokens are refilled at the rate stored, up to its burst, and then
// held to this call's burst: when the app changed its rate, the bucket
// keeps the tokens it had earned and follows the new rate from now on, as
// golang.org/x/time/rate's SetLimitAt and SetBurstAt do in vurb's memory
// store. A key that is not there is a full bucket.
//
// It returns {1, 0} when a token was spent, else {0, µs until one is
// there}, and sets the key to expire when the bucket is full again, at
// which point it is the same as none.
var take = redis.NewScript(`
if redis.replicate_commands then redis.replicate_commands() end
local calls, per, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])

local tokens = burst
local s = redis.call('HMGET', KEYS[1], 't', 'at', 'c', 'p', 'b')
if s[1] then
	local was, at = tonumber(s[1]), tonumber(s[2])
	local elapsed = math.max(now - at, 0)
	tokens = math.min(was + elapsed * 1000 * tonumber(s[3]) / tonumber(s[4]), tonumber(s[5]))
	tokens = math.min(tokens, burst)
end

local perMicro = calls * 1000 / per -- tokens per microsecond
local ok, wait = 1, 0
if tokens >= 1 then
	tokens = tokens - 1
else
	ok, wait = 0, math.ceil((1 - tokens) / perMicro)
end

redis.call('HSET', KEYS[1], 't', tokens, 'at', now, 'c', calls, 'p', per, 'b', burst)
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perMicro / 1000) + 1)
return {ok, wait}
`)
