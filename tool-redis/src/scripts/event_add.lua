-- One event of a stream, appended to the stream's list (KEYS[1]); its
-- number (1 for the stream's first) is answered. When the list holds more
-- than ARGV[2] events the oldest are dropped, and how many were dropped so
-- far is kept under KEYS[2], so that numbers stay the same. Both keys are
-- kept for ARGV[3] ms after the last event.
-- ARGV[1] the event as stored (its message and retry hint, JSON).
local length = redis.call('RPUSH', KEYS[1], ARGV[1])
local dropped = tonumber(redis.call('GET', KEYS[2]) or '0')
local most = tonumber(ARGV[2])
if length > most then
  local over = length - most
  redis.call('LTRIM', KEYS[1], over, -1)
  dropped = dropped + over
  length = most
  redis.call('SET', KEYS[2], dropped, 'PX', ARGV[3])
elseif dropped > 0 then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return dropped + length
