# Sourced by every check in interop/checks/: where things are, and starting
# and stopping servers so that nothing outlives the check.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK="$ROOT/target/interop"
PY="$WORK/venv/bin/python"
# Where cargo built it: CARGO_TARGET_DIR when set, as cargo itself reads it.
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/tool-examples"
NODE_DIR="$ROOT/interop/node"
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
# A scratch directory of this check's own, removed when it ends.
SCRATCH=$(mktemp -d "$WORK/scratch.XXXXXX")
PIDS=()

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  # KEEP_SCRATCH=1 keeps the logs of a failed run to read.
  [[ -n ${KEEP_SCRATCH:-} ]] || rm -rf "$SCRATCH"
}
trap cleanup EXIT

fail() {
  echo "FAILED: $*" >&2
  exit 1
}

# A TCP port free on loopback now.
free_port() {
  "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_mcp NAME ARGS...: `tool-examples mcp ARGS...` in the background,
# logging to $SCRATCH/NAME.log; waits until it says where it serves and sets
# ADDRESS (host:port) and SERVER_PID. Give `--http 127.0.0.1:0` for any port.
start_mcp() {
  local name=$1
  shift
  local log="$SCRATCH/$name.log"
  "$BIN" mcp "$@" >"$log" 2>&1 &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  local tries=0
  until grep -qs 'serving MCP on http://' "$log"; do
    tries=$((tries + 1))
    if [[ $tries -gt 200 ]] || ! kill -0 "$SERVER_PID" 2>/dev/null; then
      cat "$log" >&2
      fail "$name did not start"
    fi
    sleep 0.05
  done
  ADDRESS=$(grep -o 'serving MCP on http://[^/]*' "$log" | head -1 | sed 's|.*http://||')
}

# start_redis [ARGS...]: a redis-server of this check's own on a free
# loopback port (REDIS_PORT when set), nothing saved to disk unless ARGS
# say otherwise; sets REDIS_URL, REDIS_PORT and REDIS_PID.
start_redis() {
  local port=${REDIS_PORT:-$(free_port)}
  mkdir -p "$SCRATCH/redis"
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
    --dir "$SCRATCH/redis" --logfile "$SCRATCH/redis/redis.log" "$@" &
  REDIS_PID=$!
  REDIS_PORT=$port
  PIDS+=("$REDIS_PID")
  local tries=0
  until redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; do
    tries=$((tries + 1))
    [[ $tries -lt 100 ]] || fail "redis-server did not start: $(cat "$SCRATCH/redis/redis.log")"
    sleep 0.05
  done
  REDIS_URL="redis://127.0.0.1:$port/0"
}

# The log of a server started by start_mcp.
log_of() {
  echo "$SCRATCH/$1.log"
}

# http_get URL: the body of a GET, or a failure (no curl needed).
http_get() {
  "$PY" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$1"
}

# start_backends KIND ARGS...: three `tool-examples mcp --http` processes
# named KIND-1 to KIND-3, each given ARGS; sets BACKENDS (nginx's `server`
# lines) and BACKEND_ADDRESSES (host:port each, in order).
start_backends() {
  local kind=$1
  shift
  BACKENDS=""
  BACKEND_ADDRESSES=()
  BACKEND_PIDS=()
  for n in 1 2 3; do
    RUST_LOG=${BACKEND_LOG:-warn,tool_examples=info,tool_mcp=debug} start_mcp "$kind-$n" --http 127.0.0.1:0 "$@"
    BACKENDS+="server $ADDRESS; "
    BACKEND_ADDRESSES+=("$ADDRESS")
    BACKEND_PIDS+=("$SERVER_PID")
  done
}

# start_nginx NAME: nginx round robin (interop/nginx/round_robin.conf, no
# affinity) over $BACKENDS on a free port, its read timeout
# $NGINX_READ_TIMEOUT (300s unless set); sets NGINX_PORT.
start_nginx() {
  local name=$1
  NGINX_PORT=$(free_port)
  mkdir -p "$SCRATCH/$name"
  sed -e "s|@SCRATCH@|$SCRATCH/$name|g" -e "s|@PORT@|$NGINX_PORT|g" -e "s|@BACKENDS@|$BACKENDS|g" \
    -e "s|@READ_TIMEOUT@|${NGINX_READ_TIMEOUT:-300s}|g" \
    "$ROOT/interop/nginx/round_robin.conf" >"$SCRATCH/$name/nginx.conf"
  "$NGINX" -c "$SCRATCH/$name/nginx.conf" -e "$SCRATCH/$name/nginx-error.log" &
  PIDS+=("$!")
  local tries=0
  until http_get "http://127.0.0.1:$NGINX_PORT/healthz" >/dev/null 2>&1; do
    tries=$((tries + 1))
    [[ $tries -lt 100 ]] || fail "nginx did not start: $(cat "$SCRATCH/$name/nginx-error.log")"
    sleep 0.05
  done
}
