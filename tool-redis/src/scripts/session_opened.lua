-- A session was opened: record its owner beside the state rmcp stored
-- (`init`), both kept for the idle time. 0 when the state is not there
-- (storing it failed): the gate then closes the session instead.
-- KEYS[1] the session's hash; ARGV[1] the owner; ARGV[2] the idle time, ms.
if redis.call('HEXISTS', KEYS[1], 'init') == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
