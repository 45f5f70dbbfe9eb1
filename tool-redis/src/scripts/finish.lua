-- Records the holder's resume finished
-- (tool_core::approval::SuspensionLedger::finish).
-- KEYS[1]: the record. ARGV: holder.
-- Returns 1 when the holder held it, else 0 (nothing changes).
local key = KEYS[1]
if redis.call('HGET', key, 'holder') ~= ARGV[1] or redis.call('HGET', key, 'finished') ~= '0' then
  return 0
end
redis.call('HSET', key, 'finished', '1')
return 1
