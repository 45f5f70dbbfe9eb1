#!/usr/bin/env bash
# Throughput of `tool-examples call` (release build): N echo calls as JSON
# lines on stdin, one result line each on stdout. Prints calls per second for
# the parallel and the sequential mode, best of RUNS runs each.
#
# Usage: scripts/throughput.sh [N] [RUNS]     (defaults: 100000 calls, 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."

calls=${1:-100000}
runs=${2:-3}
cargo build --release -q -p tool-examples
binary=target/release/tool-examples

input=$(mktemp)
output=$(mktemp)
trap 'rm -f "$input" "$output"' EXIT
seq 1 "$calls" | sed 's/.*/{"type":"toolCall","id":"call-&","name":"echo","arguments":{"value":"Pi","ignored":"drop me"}}/' >"$input"

measure() {
  local best=""
  for _ in $(seq 1 "$runs"); do
    local start end
    start=$(date +%s%N)
    "$binary" call "$@" <"$input" >"$output"
    end=$(date +%s%N)
    local lines
    lines=$(wc -l <"$output")
    if [ "$lines" -ne "$calls" ]; then
      echo "expected $calls result lines, got $lines" >&2
      exit 1
    fi
    local elapsed=$((end - start))
    if [ -z "$best" ] || [ "$elapsed" -lt "$best" ]; then best=$elapsed; fi
  done
  # calls per second, from nanoseconds
  echo $((calls * 1000000000 / best))
}

# The last answer must be the last call's: order is kept.
check_order() {
  tail -n 1 "$output" | grep -q "\"toolCallId\":\"call-$calls\"" || {
    echo "results are out of order" >&2
    exit 1
  }
}

parallel=$(measure)
check_order
sequential=$(measure --sequential)
check_order
echo "tool-examples call, $calls echo calls, best of $runs:"
echo "  parallel:   $parallel calls/s"
echo "  sequential: $sequential calls/s"
