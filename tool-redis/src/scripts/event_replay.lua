-- The events of a stream after number ARGV[1]: answers how many were
-- dropped before the first one kept, then the events from the one after
-- ARGV[1] (or the first kept, when that one was dropped).
-- KEYS[1] the stream's list; KEYS[2] how many were dropped.
local dropped = tonumber(redis.call('GET', KEYS[2]) or '0')
local start = tonumber(ARGV[1]) - dropped
if start < 0 then
  start = 0
end
local events = redis.call('LRANGE', KEYS[1], start, -1)
table.insert(events, 1, tostring(dropped + start))
return events
