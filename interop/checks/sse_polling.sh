# SSE polling (SEP-1699) behind a proxy that cuts quiet connections: nginx
# with a 2 s read timeout in front of one `tool-examples mcp --http`, and
# calls whose stream carries nothing meanwhile (no progress asked).
# Without --sse-polling nginx cuts the stream at 2 s and the client waits
# rmcp's retry hint (3 s) to reconnect: a 3.5 s call's answer, sent in
# between, is lost (the margins are 1.5 s each way: a call ending near 5 s
# would race the reconnection, which rmcp's own cache then serves). With
# --sse-polling 1 the server
# closes the stream after 1 s, the official clients (the Python SDK in
# legacy mode, the TypeScript SDK) reconnect with Last-Event-ID, and the
# answer arrives. The same through a shared store (--state-url), the
# reconnections reaching any of three processes.
source "$(dirname "$0")/../lib.sh"

WAIT_MS=5000
CONTROL_MS=3500
export NGINX_READ_TIMEOUT=2s

echo "-- without polling, nginx cuts the call's stream and its answer is lost"
start_mcp plain --http 127.0.0.1:0
BACKENDS="server $ADDRESS; "
start_nginx plain
"$PY" "$ROOT/interop/python/long_call.py" "http://127.0.0.1:$NGINX_PORT/mcp" "$CONTROL_MS" lost \
  || fail "the control: a call longer than nginx's read timeout was answered without polling"

echo "-- with --sse-polling 1, in one process"
start_mcp polled --http 127.0.0.1:0 --sse-polling 1
BACKENDS="server $ADDRESS; "
start_nginx polled
url="http://127.0.0.1:$NGINX_PORT/mcp"
"$PY" "$ROOT/interop/python/long_call.py" "$url" "$WAIT_MS" answered || fail "Python SDK through polling"
(cd "$NODE_DIR" && node long_call.mjs "$url" "$WAIT_MS") || fail "TypeScript SDK through polling"

echo "-- with --sse-polling 1 and a shared store, three processes, round robin"
start_redis
start_backends shared --sse-polling 1 --state-url "$REDIS_URL"
start_nginx shared
url="http://127.0.0.1:$NGINX_PORT/mcp"
"$PY" "$ROOT/interop/python/long_call.py" "$url" "$WAIT_MS" answered || fail "Python SDK through polling, shared store"
(cd "$NODE_DIR" && node long_call.mjs "$url" "$WAIT_MS") || fail "TypeScript SDK through polling, shared store"
echo "long calls answered through SSE polling"
