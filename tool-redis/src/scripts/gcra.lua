-- One request at a rate (GCRA: the generic cell rate algorithm): the key
-- holds the theoretical arrival time (TAT) in microseconds of the server's
-- clock. Admitted when the new TAT runs at most the tolerance ahead of now;
-- answers 0 then, else the microseconds to wait. The key expires when the
-- TAT has passed: a quiet caller costs nothing.
-- KEYS[1] the caller's key; ARGV[1] the interval, µs; ARGV[2] the
-- tolerance (burst × interval), µs.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then
  tat = now
end
local next = tat + interval
local ahead = next - now
if ahead > tolerance then
  return ahead - tolerance
end
redis.call('SET', KEYS[1], string.format('%d', next), 'PX', math.ceil(ahead / 1000))
return 0
