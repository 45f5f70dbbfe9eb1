-- Claims a state's record for a resume (tool_core::approval::SuspensionLedger::claim).
-- KEYS[1]: the record (a hash: holder, lease, running, finished).
-- ARGV: holder, lease_until_ms, running (a JSON array of call ids),
--       keep_until_ms, now_ms.
-- Returns {"fresh"}, {"busy", lease_until_ms}, {"finished"}, or
-- {"taken", the earlier running as JSON}.
local key = KEYS[1]
local holder, lease, running, keep = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now = tonumber(ARGV[5])
if redis.call('EXISTS', key) == 0 then
  redis.call('HSET', key, 'holder', holder, 'lease', lease, 'running', running, 'finished', '0')
  redis.call('PEXPIREAT', key, keep)
  return {'fresh'}
end
if redis.call('HGET', key, 'finished') == '1' then
  return {'finished'}
end
local current = redis.call('HGET', key, 'lease')
if tonumber(current) > now then
  return {'busy', current}
end
local before = redis.call('HGET', key, 'running')
local merged, seen = {}, {}
for _, ids in ipairs({cjson.decode(before), cjson.decode(running)}) do
  for _, id in ipairs(ids) do
    if not seen[id] then
      seen[id] = true
      table.insert(merged, id)
    end
  end
end
local union = '[]'
if #merged > 0 then
  union = cjson.encode(merged)
end
redis.call('HSET', key, 'holder', holder, 'lease', lease, 'running', union)
local left = redis.call('PTTL', key)
if left >= 0 and tonumber(keep) > now + left then
  redis.call('PEXPIREAT', key, keep)
end
return {'taken', before}
