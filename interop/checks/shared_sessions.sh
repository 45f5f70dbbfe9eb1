# Legacy sessions with no sticky routing: three `tool-examples mcp --http
# --state-url` processes sharing one redis-server, behind nginx with plain
# round robin and no affinity (issue 36). The official clients with
# sessions (the Python SDK in legacy mode, the TypeScript SDK) list, call,
# get progress, cancel and approve by elicitation through it, each request
# reaching whichever process nginx picks; a process killed mid-session
# does not end the session; an event stream broken on one process resumes
# with Last-Event-ID on another; Redis stopped and started under a running
# process: 503 with Retry-After meanwhile, then it recovers by itself.
# Then three more, with limits per caller: the counts hold across them.
source "$(dirname "$0")/../lib.sh"

# Appended and synced at every write: a restart keeps the sessions, as a
# deployment's store (docs/deploying.md) would.
start_redis --appendonly yes --appendfsync always
root="$SCRATCH/root"
mkdir -p "$root"
head -c 48 /dev/urandom | base64 >"$SCRATCH/approval.key"
start_backends shared --root "$root" --approval-key-file "$SCRATCH/approval.key" --state-url "$REDIS_URL"
start_nginx shared
url="http://127.0.0.1:$NGINX_PORT/mcp"

echo "-- the official clients with sessions, through round robin"
"$PY" "$ROOT/interop/python/calls.py" "$url" legacy || fail "Python SDK (legacy) through round robin"
(cd "$NODE_DIR" && node calls.mjs "$url") || fail "TypeScript SDK (sessions) through round robin"
"$PY" "$ROOT/interop/python/approval.py" "$url" legacy "$root" \
  || fail "Python SDK (legacy): approval by elicitation through round robin"
(cd "$NODE_DIR" && node approval.mjs "$url" "$root") \
  || fail "TypeScript SDK (sessions): approval by elicitation through round robin"
for n in 1 2 3; do
  served=$(grep -c 'tool_mcp::handler: answered' "$(log_of "shared-$n")" || true)
  echo "backend $n answered $served calls"
  [[ $served -gt 0 ]] || fail "backend $n never answered a call: round robin did not reach it"
done
restored=$(cat "$(log_of shared-1)" "$(log_of shared-2)" "$(log_of shared-3)" | grep -c 'MCP session opened' || true)
echo "sessions opened across the three: $restored"

echo "-- a process killed mid-session"
fifo="$SCRATCH/failover.in"
mkfifo "$fifo"
"$PY" "$ROOT/interop/python/failover.py" "$url" <"$fifo" >"$SCRATCH/failover.out" 2>&1 &
failover=$!
exec 3>"$fifo"
tries=0
until grep -qs '^ready' "$SCRATCH/failover.out"; do
  tries=$((tries + 1))
  [[ $tries -lt 200 ]] && kill -0 "$failover" 2>/dev/null \
    || fail "the failover client did not get going: $(cat "$SCRATCH/failover.out")"
  sleep 0.05
done
kill -9 "${BACKEND_PIDS[0]}"
echo "killed backend 1 (pid ${BACKEND_PIDS[0]})"
# A moment for nginx to see its kept-alive connections to the dead process
# close: a POST it had already written to one of them as the process died
# gets 502, which nginx rightly does not resend (docs/deploying.md).
sleep 1
echo go >&3
exec 3>&-
wait "$failover" || fail "the session did not survive its process: $(cat "$SCRATCH/failover.out")"
grep -q '^ok' "$SCRATCH/failover.out" || fail "failover: $(cat "$SCRATCH/failover.out")"
echo "the session went on on the processes left, with no new initialize"

echo "-- an event stream resumed on another process"
(cd "$ROOT/interop/python" && "$PY" resume.py "http://${BACKEND_ADDRESSES[1]}/mcp" "http://${BACKEND_ADDRESSES[2]}/mcp") \
  || fail "Last-Event-ID on another process"

echo "-- Redis stopped and started under a running process"
(cd "$ROOT/interop/python" && "$PY" outage.py "http://${BACKEND_ADDRESSES[1]}" \
  "redis-cli -p $REDIS_PORT shutdown" \
  "redis-server --port $REDIS_PORT --bind 127.0.0.1 --save '' --appendonly yes --appendfsync always --dir $SCRATCH/redis --logfile $SCRATCH/redis/redis.log --daemonize yes --pidfile $SCRATCH/redis/redis.pid") \
  || fail "the store's outage"
PIDS+=("$(cat "$SCRATCH/redis/redis.pid")")
grep -q 'the shared store failed to .*Redis at 127.0.0.1' "$(log_of shared-2)" \
  || fail "no error in the log naming the store during its outage"

echo "-- limits per caller, counted in the store, across three processes"
start_backends limited --root "$root" --state-url "$REDIS_URL" --state-prefix limited \
  --max-sessions-per-caller 2 --max-in-flight-per-caller 2 --rate-per-caller 5 --burst-per-caller 10
start_nginx limited
(cd "$ROOT/interop/python" && "$PY" quotas.py "http://127.0.0.1:$NGINX_PORT/mcp") \
  || fail "limits per caller across processes"
echo "ok"
