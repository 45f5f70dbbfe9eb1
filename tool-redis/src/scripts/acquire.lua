-- A place among a key's (a sorted set: each holder scored by the end of its
-- lease, in ms of the server's clock). Leases that ran out are dropped
-- first; a holder taking its place again renews it. 1 when held, 0 when
-- every place is taken. The set expires with its last lease.
-- KEYS[1] the set; ARGV[1] the holder; ARGV[2] the most places; ARGV[3]
-- the lease, ms.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 1
