#!/usr/bin/env bash
# Stateless tools/call through nginx: three `tool-examples mcp --stateless`
# processes behind plain round robin against one, and, for nginx's own
# cost, the one process reached directly. Calls/s, p50/p99 latency, and the
# CPU each process used (utime + stime from /proc) beside the whole
# machine's, so the ratio can be read against what limits it.
#
# The load is wrk (Debian package `wrk`) with scripts/stateless-call.lua:
# each connection POSTs echo's tools/call as a 2025-06-18 client does once
# its initialize is done (MCP-Protocol-Version, no session), kept alive,
# one request at a time. nginx's configuration is
# interop/nginx/round_robin.conf (what the interop suite checks) with the
# access log off; the backends' in-flight and pending-connection caps are
# raised past the 256 clients. Setups alternate within each round (the
# order rotating from round to round), so a build running beside shares
# its noise out; figures are medians over the rounds, ratios the median of
# each round's ratio, with their range. Markdown on stdout, progress on
# stderr.
#
# Usage: scripts/nginx-load.sh [--quick] [--rounds R] [--seconds S] [--keepalive N] [--workers N]
#   --quick        1 round of 2 s per setup and client count (about 40 s)
#   --rounds R     rounds (default 3); --seconds S: each wrk run (default 5)
#   --keepalive N  idle connections nginx keeps to the backends (default 32,
#                  as in round_robin.conf)
#   --workers N    tokio worker threads of each backend (TOKIO_WORKER_THREADS;
#                  default one per core, as the binary starts)
set -euo pipefail
source "$(dirname "$0")/wrk-lib.sh"
cd "$ROOT"

ROUNDS=3
SECONDS_EACH=5
KEEPALIVE=32
WORKERS=""
CLIENTS=(1 16 256)
while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) ROUNDS=1 SECONDS_EACH=2 ;;
    --rounds) ROUNDS=$2; shift ;;
    --seconds) SECONDS_EACH=$2; shift ;;
    --keepalive) KEEPALIVE=$2; shift ;;
    --workers) WORKERS=$2; shift ;;
    *) echo "unknown option $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
  shift
done

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $NGINX ]] || { echo "needs nginx (apt-get install -y nginx)" >&2; exit 1; }

echo "building tool-examples (release)" >&2
cargo build -q --release -p tool-examples
BIN="$ROOT/target/release/tool-examples"

# start_backend NAME: sets ADDRESS and BACKEND_PID.
start_backend() {
  local log="$SCRATCH/$1.log"
  RUST_LOG=warn,tool_examples=info env ${WORKERS:+TOKIO_WORKER_THREADS=$WORKERS} "$BIN" mcp --http 127.0.0.1:0 --stateless \
    --max-in-flight 4096 --max-pending-connections 4096 >"$log" 2>&1 &
  BACKEND_PID=$!
  PIDS+=("$BACKEND_PID")
  wait_for_line "$log" 'serving MCP on http://' "$BACKEND_PID" "$1"
  ADDRESS=$(grep -o 'serving MCP on http://[^/]*' "$log" | head -1 | sed 's|.*http://||')
}

# start_nginx NAME BACKEND...: sets NGINX_PORT and NGINX_WORKER (the pid of
# its one worker process, which does the proxying).
start_nginx() {
  local name=$1
  shift
  local dir="$SCRATCH/$name" backends="" backend
  for backend in "$@"; do backends+="server $backend; "; done
  NGINX_PORT=$(free_port)
  mkdir -p "$dir"
  sed -e "s|@SCRATCH@|$dir|g" -e "s|@PORT@|$NGINX_PORT|g" -e "s|@BACKENDS@|$backends|g" \
    -e "s|access_log .*;|access_log off;|" -e "s|keepalive 32;|keepalive $KEEPALIVE;|" \
    "$ROOT/interop/nginx/round_robin.conf" >"$dir/nginx.conf"
  "$NGINX" -c "$dir/nginx.conf" -e "$dir/nginx-error.log" &
  local master=$!
  PIDS+=("$master")
  local tries=0
  until curl -fsS "http://127.0.0.1:$NGINX_PORT/healthz" >/dev/null 2>&1; do
    tries=$((tries + 1))
    [[ $tries -lt 100 ]] || { cat "$dir/nginx-error.log" >&2; echo "nginx did not start" >&2; exit 1; }
    sleep 0.05
  done
  NGINX_WORKER=$(cat "/proc/$master/task/$master/children")
  NGINX_WORKER=${NGINX_WORKER%% *}
}

echo "starting 3 backends and 2 nginx" >&2
start_backend backend-1
B1=$ADDRESS P1=$BACKEND_PID
start_backend backend-2
B2=$ADDRESS P2=$BACKEND_PID
start_backend backend-3
B3=$ADDRESS P3=$BACKEND_PID
start_nginx one "$B1"
ONE_URL="http://127.0.0.1:$NGINX_PORT/mcp" ONE_WORKER=$NGINX_WORKER
start_nginx three "$B1" "$B2" "$B3"
THREE_URL="http://127.0.0.1:$NGINX_PORT/mcp" THREE_WORKER=$NGINX_WORKER
DIRECT_URL="http://$B1/mcp"
for url in "$DIRECT_URL" "$ONE_URL" "$THREE_URL" "$THREE_URL" "$THREE_URL"; do check "$url"; done

# run SETUP CLIENTS ROUND SECONDS
run() {
  case $1 in
    direct-1) measure "$1" "$DIRECT_URL" "$2" "$3" "$4" "server:$P1" ;;
    nginx-1) measure "$1" "$ONE_URL" "$2" "$3" "$4" "server:$P1" "proxy:$ONE_WORKER" ;;
    nginx-3) measure "$1" "$THREE_URL" "$2" "$3" "$4" "server:$P1" "server:$P2" "server:$P3" \
      "proxy:$THREE_WORKER" ;;
  esac
}

SETUPS=(direct-1 nginx-1 nginx-3)
echo "warming up" >&2
for setup in "${SETUPS[@]}"; do run "$setup" 16 0 1; done
: >"$RAW"
for ((round = 1; round <= ROUNDS; round++)); do
  for clients in "${CLIENTS[@]}"; do
    for ((k = 0; k < ${#SETUPS[@]}; k++)); do
      setup=${SETUPS[$(((k + round) % ${#SETUPS[@]}))]}
      echo "round $round/$ROUNDS: $setup, $clients clients" >&2
      run "$setup" "$clients" "$round" "$SECONDS_EACH"
    done
  done
done

echo "Stateless tools/call (echo) through nginx $("$NGINX" -v 2>&1 | sed 's|.*/||') (1 worker, round robin, keepalive $KEEPALIVE), backends with ${WORKERS:-$(nproc)} tokio worker(s) each, load from wrk $(wrk -v 2>&1 | head -1 | awk '{print $2}') on kept-alive connections; $(nproc) CPU cores shared by all; $ROUNDS round(s) of $SECONDS_EACH s per row, setups alternating; medians."
echo
python3 "$STATS" report "$RAW" \
  "direct-1=1 process, direct" "nginx-1=1 process behind nginx" "nginx-3=3 processes behind nginx" \
  --ratios nginx-3/nginx-1 nginx-1/direct-1
