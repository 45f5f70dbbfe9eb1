# Deferred tools an MCP host can call (issue 38): `tool-examples mcp
# --defer-all-except echo`, and the official SDKs as hosts. In a session,
# what a tool_search finds joins that session's tools/list and the client
# is told (notifications/tools/list_changed): the Python SDK, whose
# tools/list is cached, lists again, and the TypeScript SDK's listChanged
# handler refetches by itself; then the found tool is called. Without a
# session (2026-07-28, --stateless) every tool is listed. Over stdio the
# connection is the session. Then three processes sharing a redis-server
# behind nginx round robin: the loaded set is in the store, so the
# tools/list any process answers after the search shows what it found.
source "$(dirname "$0")/../lib.sh"

start_mcp sessions --http 127.0.0.1:0 --defer-all-except echo
url="http://$ADDRESS/mcp"
echo "-- Python SDK (legacy: a session)"
"$PY" "$ROOT/interop/python/search.py" "$url" legacy || fail "Python SDK (legacy), one process"
echo "-- Python SDK (auto: 2026-07-28, no session)"
"$PY" "$ROOT/interop/python/search.py" "$url" auto || fail "Python SDK (2026-07-28), one process"
echo "-- TypeScript SDK (a session)"
(cd "$NODE_DIR" && node search.mjs "$url") || fail "TypeScript SDK, one process"
echo "-- Python SDK over stdio (legacy)"
"$PY" "$ROOT/interop/python/search.py" "stdio:$BIN mcp --root $SCRATCH --defer-all-except echo" legacy \
  || fail "Python SDK over stdio"

echo "-- stateless: every tool listed, or only the core ones when deferral is kept"
start_mcp stateless --http 127.0.0.1:0 --stateless --defer-all-except echo
"$PY" - "http://$ADDRESS/mcp" <<'PY' || fail "stateless listing"
import sys
import anyio
from mcp.client.client import Client

async def main(url):
    async with Client(url, mode="legacy") as client:
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        assert names == ["echo", "label", "list", "read", "tool_search", "upper", "wait", "write"], names
    print("stateless lists every tool: OK")

anyio.run(main, sys.argv[1])
PY
start_mcp kept --http 127.0.0.1:0 --stateless --defer-all-except echo --defer-without-sessions
"$PY" - "http://$ADDRESS/mcp" <<'PY' || fail "stateless listing with deferral kept"
import sys
import anyio
from mcp.client.client import Client

async def main(url):
    async with Client(url, mode="legacy") as client:
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        assert names == ["echo", "tool_search"], names
        # What a search finds is still callable by name.
        shouted = await client.call_tool("upper", {"text": "kept"})
        assert shouted.content[0].text == "KEPT", shouted
    print("stateless with deferral kept: OK")

anyio.run(main, sys.argv[1])
PY

echo "-- three processes sharing Redis, behind nginx round robin"
start_redis
root="$SCRATCH/root"
mkdir -p "$root"
start_backends shared --root "$root" --state-url "$REDIS_URL" --defer-all-except echo
start_nginx shared
url="http://127.0.0.1:$NGINX_PORT/mcp"
for round in 1 2 3; do
  "$PY" "$ROOT/interop/python/search.py" "$url" legacy round-robin || fail "Python SDK through round robin"
  (cd "$NODE_DIR" && node search.mjs "$url" round-robin) || fail "TypeScript SDK through round robin"
done
loaded=$(redis-cli -p "$REDIS_PORT" --scan --pattern '*session:*' | while read -r key; do
  redis-cli -p "$REDIS_PORT" hget "$key" loaded
done | grep -c '^upper$' || true)
# The Python SDK ends its session (DELETE) when it closes, and the set
# goes with it; the TypeScript SDK's three stay until they go idle.
echo "sessions whose loaded set in Redis holds upper: $loaded"
[[ $loaded -ge 3 ]] || fail "the loaded sets are not in the store ($loaded of the TypeScript SDK's 3 sessions)"
echo "session search passed"
