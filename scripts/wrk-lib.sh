# Sourced by scripts/nginx-load.sh and scripts/stateless-load.sh: a scratch
# directory, processes that end with the script, and one wrk run measured
# with the CPU each process of the setup used (utime + stime, /proc) and
# the whole machine's (/proc/stat), so a build running beside shows up.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LUA="$ROOT/scripts/stateless-call.lua"
STATS="$ROOT/scripts/wrk_load_stats.py"
TICKS=$(getconf CLK_TCK)
command -v wrk >/dev/null || { echo "needs wrk (apt-get install -y wrk)" >&2; exit 1; }

mkdir -p "$ROOT/target/wrk-load"
SCRATCH=$(mktemp -d "$ROOT/target/wrk-load/run.XXXXXX")
RAW="$SCRATCH/raw.tsv"
: >"$RAW"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$SCRATCH"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for_line LOG PATTERN PID WHAT: until LOG has a line matching PATTERN.
wait_for_line() {
  local tries=0
  until grep -qs "$2" "$1"; do
    tries=$((tries + 1))
    if [[ $tries -gt 400 ]] || ! kill -0 "$3" 2>/dev/null; then
      cat "$1" >&2
      echo "$4 did not start" >&2
      exit 1
    fi
    sleep 0.05
  done
}

# cpu_ticks PID: its user + system CPU so far, in clock ticks.
cpu_ticks() {
  sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# machine_ticks: busy and total ticks of every CPU, "busy total".
machine_ticks() {
  awk '/^cpu / { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6 }' /proc/stat
}

# check URL: one stateless call (the request wrk repeats) is answered with
# echo's text, as JSON.
check() {
  local answer
  answer=$(curl -sS -D "$SCRATCH/headers" -X POST "$1" \
    -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    -H 'MCP-Protocol-Version: 2025-06-18' \
    --data '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"value":"hello"}}}')
  if [[ $answer != *'"text":"hello"'* ]] || ! grep -qi '^content-type: application/json' "$SCRATCH/headers"; then
    echo "$1 did not answer echo's call as JSON: $answer" >&2
    exit 1
  fi
}

# measure SETUP URL CLIENTS ROUND SECONDS ROLE:PID...: one wrk run of
# CLIENTS kept-alive connections; appends a line to $RAW. ROLE is `server`
# (what serves the calls) or `proxy`.
measure() {
  local setup=$1 url=$2 clients=$3 round=$4 seconds=$5
  shift 5
  local processes=("$@") before=() entry threads=2
  [[ $clients -gt 1 ]] || threads=1
  for entry in "${processes[@]}"; do before+=("$(cpu_ticks "${entry#*:}")"); done
  local machine_before start end
  machine_before=$(machine_ticks)
  start=$(date +%s.%N)
  local TIMEFORMAT='%U %S'
  { time wrk -t "$threads" -c "$clients" -d "${seconds}s" --latency -s "$LUA" "$url" \
    >"$SCRATCH/wrk.out"; } 2>"$SCRATCH/wrk.time"
  end=$(date +%s.%N)
  local cpus="" i
  for i in "${!processes[@]}"; do
    cpus+="${processes[$i]%%:*}=$(($(cpu_ticks "${processes[$i]#*:}") - ${before[$i]})),"
  done
  python3 "$STATS" parse "$SCRATCH/wrk.out" "$SCRATCH/wrk.time" "$setup" "$clients" "$round" \
    "$start" "$end" "$TICKS" "${cpus%,}" "$machine_before" "$(machine_ticks)" >>"$RAW"
}
