-- A session's search loaded deferred tools: add the names not yet in its
-- `loaded` field (one name a line, in the order loaded) and give back
-- those added, one a line. Nothing is added to a session no process knows
-- (closed, gone unused, or not yet opened): its hash would outlive it
-- without a TTL.
-- KEYS[1] the session's hash; ARGV the names (no line break in any).
if redis.call('HGET', KEYS[1], 'owner') == false then
  return ''
end
local loaded = redis.call('HGET', KEYS[1], 'loaded') or ''
local known = {}
for name in string.gmatch(loaded, '[^\n]+') do
  known[name] = true
end
local added = {}
for _, name in ipairs(ARGV) do
  if not known[name] then
    known[name] = true
    added[#added + 1] = name
  end
end
if #added > 0 then
  local joined = table.concat(added, '\n')
  if loaded == '' then loaded = joined else loaded = loaded .. '\n' .. joined end
  redis.call('HSET', KEYS[1], 'loaded', loaded)
end
return table.concat(added, '\n')
