#!/usr/bin/env bash
# What the shared state on Redis (issue 36, `mcp --http --state-url`) costs,
# measured on loopback with a Python http.client client
# (scripts/shared_state_bench.py), one keep-alive connection per server:
#
#   1. `tools/call echo {"value":"x"}` in a session that stays local, on
#      (a) memory: no store; (b) redis: --state-url (the owner check and
#      `touch`, the event store's writes); (c) memory+limits: no store, the
#      four limits per caller set too high ever to refuse, counted in
#      memory; (d) redis+limits: the same limits counted in Redis. Rounds
#      interleave the four in blocks of calls; the table gives medians of
#      the per-round p50/p90, and of the per-round differences (b - a,
#      d - c: what the store adds) and ratios (the issue's goal: under
#      0.3 ms p50 added). Then the Redis
#      commands one call costs on (b) and (c), from INFO commandstats.
#   2. A fresh session opened on process A, its first call on process B
#      (restored from Redis: `initialize` replayed), against a fresh
#      session's first call on A; and B's second call (local by then).
#   3. Redis memory per idle session: 1000 sessions opened (no calls) on a
#      server with a redis-server of its own, used_memory's delta / 1000,
#      and every kind of key under the prefix with MEMORY USAGE of a sample.
#
# Every server and redis-server is this script's own (interop/lib.sh starts
# them and stops them on exit). It fails (non-zero) when one does not start
# or a call fails; never on a timing.
#
# Usage: scripts/shared-state-bench.sh [options]     (from any directory)
#   --quick            fewer rounds and calls (a minute or less)
#   --rounds R         rounds (default 5; --quick 3)
#   --calls N          calls per config per round (default 2000; --quick 500)
#   --sessions N       fresh sessions of each kind in part 2 (default 100; --quick 30)
#   --idle-sessions N  sessions of part 3 (default 1000)
#   --bin PATH         the tool-examples to measure (default: the release
#                      build, built first unless --no-build)
#   --no-build         measure the binary as it is
#   --json FILE        every figure, per round, to FILE as well
#   --only PARTS       comma-separated subset of latency,restore,memory
# Progress goes to stderr; the summary (Markdown) to stdout.
#
# Needs redis-server, redis-cli and the interop venv (target/interop/venv:
# scripts/interop.sh sets it up).
#
# e.g. scripts/shared-state-bench.sh
#      scripts/shared-state-bench.sh --quick --no-build
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

quick=false
rounds=""
calls=""
sessions=""
idle_sessions=1000
bin=""
build=true
json=""
only="latency,restore,memory"

die() {
  echo "shared-state-bench.sh: $*" >&2
  exit 2
}

while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) quick=true ;;
    --rounds) rounds=${2:?--rounds wants a number}; shift ;;
    --calls) calls=${2:?--calls wants a number}; shift ;;
    --sessions) sessions=${2:?--sessions wants a number}; shift ;;
    --idle-sessions) idle_sessions=${2:?--idle-sessions wants a number}; shift ;;
    --bin) bin=${2:?--bin wants a path}; shift ;;
    --no-build) build=false ;;
    --json) json=${2:?--json wants a file}; shift ;;
    --only) only=${2:?--only wants parts}; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
  shift
done
if $quick; then
  rounds=${rounds:-3}
  calls=${calls:-500}
  sessions=${sessions:-30}
else
  rounds=${rounds:-5}
  calls=${calls:-2000}
  sessions=${sessions:-100}
fi
for tool in redis-server redis-cli; do
  command -v "$tool" >/dev/null || die "$tool is not installed"
done
[[ -x "$repo/target/interop/venv/bin/python" ]] \
  || die "no Python venv at target/interop/venv (scripts/interop.sh sets it up)"
[[ -n $json && $json != /* ]] && json="$PWD/$json"

if [[ -z $bin ]]; then
  bin="${CARGO_TARGET_DIR:-$repo/target}/release/tool-examples"
  if $build; then
    echo "building the release tool-examples" >&2
    (cd "$repo" && cargo build --release -p tool-examples --quiet)
  fi
fi
[[ -x $bin ]] || die "no binary at $bin (build it, or give --bin)"

# SCRATCH, PY, start_mcp, start_redis, fail, and the cleanup trap.
source "$repo/interop/lib.sh"
BIN=$bin
export RUST_LOG=warn,tool_examples=info

root="$SCRATCH/root"
mkdir -p "$root"
wants() { [[ ",$only," == *",$1,"* ]]; }
args=(--rounds "$rounds" --calls "$calls" --sessions "$sessions" --idle-sessions "$idle_sessions")
high=(--rate-per-caller 1000000 --burst-per-caller 1000000
  --max-sessions-per-caller 1000000 --max-in-flight-per-caller 100000)

if wants latency || wants restore; then
  start_redis
  shared_url=$REDIS_URL
  shared_port=$REDIS_PORT
  echo "redis-server for parts 1 and 2 on port $REDIS_PORT" >&2
fi
if wants latency; then
  start_mcp memory --http 127.0.0.1:0 --root "$root"
  args+=(--config "memory=http://$ADDRESS/mcp")
  start_mcp redis --http 127.0.0.1:0 --root "$root" --state-url "$shared_url" --state-prefix bench
  args+=(--config "redis=http://$ADDRESS/mcp")
  start_mcp memory-limits --http 127.0.0.1:0 --root "$root" "${high[@]}"
  args+=(--config "memory+limits=http://$ADDRESS/mcp")
  start_mcp limits --http 127.0.0.1:0 --root "$root" --state-url "$shared_url" --state-prefix benchlimits "${high[@]}"
  args+=(--config "redis+limits=http://$ADDRESS/mcp" --shared-redis-port "$shared_port")
fi
if wants restore; then
  # Room for every fresh session (the default is 256 open at once).
  start_mcp restore-a --http 127.0.0.1:0 --root "$root" --state-url "$shared_url" --state-prefix restore --max-sessions 100000
  url_a="http://$ADDRESS/mcp"
  start_mcp restore-b --http 127.0.0.1:0 --root "$root" --state-url "$shared_url" --state-prefix restore --max-sessions 100000
  args+=(--restore "$url_a" "http://$ADDRESS/mcp")
fi
if wants memory; then
  # A redis-server of its own: nothing else writes to it or expires in it.
  unset REDIS_PORT
  start_redis
  echo "redis-server for part 3 on port $REDIS_PORT" >&2
  start_mcp idle --http 127.0.0.1:0 --root "$root" --state-url "$REDIS_URL" --state-prefix idle --max-sessions 100000
  args+=(--idle "http://$ADDRESS/mcp" --idle-redis-port "$REDIS_PORT" --idle-prefix idle)
fi
[[ -n $json ]] && args+=(--json "$json")

label="$(basename "$(dirname "$bin")") build of $(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo '?')"
label+=", $(redis-server --version | grep -o 'v=[0-9.]*' | sed 's/v=/Redis /'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
started=$(date +%s)
"$PY" "$here/shared_state_bench.py" "${args[@]}" --label "$label" || fail "the measurements (see above)"

# A server that died along the way is a failure too.
for log in "$SCRATCH"/*.log; do
  if grep -q -E 'panicked|ERROR' "$log"; then
    cat "$log" >&2
    fail "$(basename "$log" .log) logged an error"
  fi
done
echo "done in $(($(date +%s) - started)) s" >&2
