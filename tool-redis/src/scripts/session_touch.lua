-- A request names a session: its owner, and the session kept for the idle
-- time from now. Nil when no process knows it: it was closed, went unused,
-- or was never opened (a state without an owner is one whose `initialize`
-- is still being answered, and whose id no client has been told yet).
-- KEYS[1] the session's hash; ARGV[1] the idle time, ms.
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return owner
