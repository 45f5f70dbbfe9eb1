# Several processes behind an ordinary balancer: three `tool-examples mcp
# --http --stateless` behind nginx with plain round robin and no affinity.
# The official clients on both revisions (Python default and legacy, the
# TypeScript SDK) must work through it, every process must have served
# calls, and /healthz must answer through it; with one --approval-key-file
# and one shared store (--state-url, a redis-server), a 2026-07-28 client's
# approval (its retry reaching another process than its question) runs the
# call. Then the same three without
# --stateless and without a shared store: a legacy client's session lives
# in one process, so round robin must break it (the other processes answer
# 404 for its session, and the SDK says "Session terminated"), which is why
# tool-mcp/README.md says such sessions need sticky routing or --state-url
# (interop/checks/shared_sessions.sh shows the same clients working with
# the store).
source "$(dirname "$0")/../lib.sh"

calls_served() {
  grep -c 'tool_mcp::handler: answered' "$(log_of "$1")" || true
}

echo "-- stateless backends behind round robin"
approval_root="$SCRATCH/approval-root"
mkdir -p "$approval_root"
head -c 48 /dev/urandom | base64 >"$SCRATCH/approval.key"
start_redis
start_backends stateless --stateless --root "$approval_root" --approval-key-file "$SCRATCH/approval.key" \
  --state-url "$REDIS_URL"
start_nginx stateless
url="http://127.0.0.1:$NGINX_PORT/mcp"
[[ $(http_get "http://127.0.0.1:$NGINX_PORT/healthz") == ok ]] || fail "/healthz through nginx"
for mode in auto legacy; do
  "$PY" "$ROOT/interop/python/calls.py" "$url" "$mode" || fail "Python SDK ($mode) through nginx"
done
(cd "$NODE_DIR" && node calls.mjs "$url") || fail "TypeScript SDK through nginx"
"$PY" "$ROOT/interop/python/approval.py" "$url" auto "$approval_root" \
  || fail "Python SDK (auto) approval through nginx, one approval key for every backend"
for n in 1 2 3; do
  served=$(calls_served "stateless-$n")
  echo "backend $n answered $served calls"
  [[ $served -gt 0 ]] || fail "backend $n never answered a call: round robin did not reach it"
done

echo "-- backends with sessions behind the same round robin"
start_backends sessions
start_nginx sessions
url="http://127.0.0.1:$NGINX_PORT/mcp"
if "$PY" "$ROOT/interop/python/calls.py" "$url" legacy >"$SCRATCH/sessions.out" 2>&1; then
  fail "a legacy session survived round robin across processes; tool-mcp/README.md says it cannot"
fi
grep -q -i -E 'session (terminated|not found)' "$SCRATCH/sessions.out" \
  || fail "sessions behind round robin failed, but not for the reason tool-mcp/README.md gives: $(tail -5 "$SCRATCH/sessions.out")"
echo "as documented: legacy sessions in memory need sticky routing; --stateless and --state-url do not"
