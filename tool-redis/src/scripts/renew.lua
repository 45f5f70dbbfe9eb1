-- Extends (or, with 0, releases) the holder's lease
-- (tool_core::approval::SuspensionLedger::renew).
-- KEYS[1]: the record. ARGV: holder, lease_until_ms.
-- Returns 1 when the holder held it, else 0.
local key = KEYS[1]
if redis.call('HGET', key, 'holder') ~= ARGV[1] or redis.call('HGET', key, 'finished') ~= '0' then
  return 0
end
redis.call('HSET', key, 'lease', ARGV[2])
return 1
