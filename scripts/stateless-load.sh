#!/usr/bin/env bash
# Stateless tools/call, our server against rmcp's alone, each server alone
# in a process of its own and the load from wrk: what each costs the
# server, with no MCP client sharing its CPU (tool-mcp/benches/http_load.rs
# runs rmcp's own clients in the servers' process instead).
#
# The servers are http_load's: `--serve ours --stateless` is
# HttpServer::stateless() with echo; `--serve rmcp --stateless` is the same
# tool with rmcp's #[tool_router] on rmcp's StreamableHttpService with
# legacy_session_mode(false) and json_response(true), on the same hyper
# loop without our checks. wrk (Debian package `wrk`) repeats
# scripts/stateless-call.lua on each kept-alive connection: echo's
# tools/call as a 2025-06-18 client sends it after its initialize. The two
# alternate within each round (the order swapped every round); figures are
# medians over the rounds, ratios the median of each round's ratio, with
# their range. "server CPU µs a call" is the server process's utime + stime
# over the calls wrk counted. Markdown on stdout, progress on stderr.
#
# Usage: scripts/stateless-load.sh [--quick] [--rounds R] [--seconds S]
#   --quick     1 round of 2 s per server and client count (about 20 s)
#   --rounds R  rounds (default 5); --seconds S: each wrk run (default 4)
set -euo pipefail
source "$(dirname "$0")/wrk-lib.sh"
cd "$ROOT"

ROUNDS=5
SECONDS_EACH=4
CLIENTS=(1 16 256)
while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) ROUNDS=1 SECONDS_EACH=2 ;;
    --rounds) ROUNDS=$2; shift ;;
    --seconds) SECONDS_EACH=$2; shift ;;
    *) echo "unknown option $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
  shift
done

echo "building the http_load bench (release)" >&2
BENCH=$(cargo bench -q -p tool-mcp --bench http_load --no-run --message-format=json \
  | python3 -c 'import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("target", {}).get("name") == "http_load" and message.get("executable"):
        print(message["executable"])')

# The servers exit when their stdin closes: when this script ends.
mkfifo "$SCRATCH/stdin"
exec 3<>"$SCRATCH/stdin"

# start_server KIND: sets ADDRESS and SERVER_PID.
start_server() {
  local log="$SCRATCH/$1.log"
  "$BENCH" --serve "$1" --stateless <"$SCRATCH/stdin" >"$log" 2>&1 &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  wait_for_line "$log" '^listening ' "$SERVER_PID" "$1"
  ADDRESS=$(sed -n 's/^listening //p' "$log")
}

start_server ours
OURS_URL="http://$ADDRESS/mcp" OURS_PID=$SERVER_PID
start_server rmcp
RMCP_URL="http://$ADDRESS/mcp" RMCP_PID=$SERVER_PID
check "$OURS_URL"
check "$RMCP_URL"

# run KIND CLIENTS ROUND SECONDS
run() {
  case $1 in
    ours) measure ours "$OURS_URL" "$2" "$3" "$4" "server:$OURS_PID" ;;
    rmcp) measure rmcp "$RMCP_URL" "$2" "$3" "$4" "server:$RMCP_PID" ;;
  esac
}

echo "warming up" >&2
run ours 16 0 1
run rmcp 16 0 1
: >"$RAW"
for ((round = 1; round <= ROUNDS; round++)); do
  for clients in "${CLIENTS[@]}"; do
    order=(ours rmcp)
    ((round % 2 == 1)) || order=(rmcp ours)
    for kind in "${order[@]}"; do
      echo "round $round/$ROUNDS: $kind, $clients clients" >&2
      run "$kind" "$clients" "$round" "$SECONDS_EACH"
    done
  done
done

echo "Stateless tools/call (echo), each server alone in its process (tokio, one worker per core), load from wrk $(wrk -v 2>&1 | head -1 | awk '{print $2}') on kept-alive connections; $(nproc) CPU cores shared by server and wrk; $ROUNDS round(s) of $SECONDS_EACH s per row, ours and rmcp alternating; medians."
echo
python3 "$STATS" report "$RAW" "ours=ours (HttpServer::stateless)" "rmcp=rmcp alone" --ratios ours/rmcp
