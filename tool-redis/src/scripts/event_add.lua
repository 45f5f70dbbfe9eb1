-- One event of a stream, appended to the stream's Redis stream (at most
-- about ARGV[1] kept, the oldest trimmed) and kept for ARGV[4] ms after the
-- last one. Answers the event's id in the stream.
-- KEYS[1] the stream; ARGV[2] the message's JSON ('' for none);
-- ARGV[3] the retry hint in ms ('' for none).
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[2], 'r', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return id
