#!/usr/bin/env bash
# Instructions per call from a script, counted by callgrind (repeatable on
# a busy machine): tool-code's bench binary runs one loop of N calls
# (`--once`), each less a script with no loop (`--once inner 0`), divided
# by N, against a direct execute_tool_call of the same `echo` (`direct N`
# less `direct 0`). The floor and identity loops are the interpreter's own
# costs, with no host behind them (see benches/code_mode.rs).
#
# Usage: scripts/code-mode-instructions.sh [N]   (default 5000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000}
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }

export CARGO_TARGET_DIR=${CALLGRIND_TARGET_DIR:-target/callgrind}
cargo bench -p tool-code --bench code_mode --no-run -q 2>/dev/null
binary=$(ls -t "$CARGO_TARGET_DIR"/release/deps/code_mode-* | grep -v '\.d$' | head -n 1)

count() { # loop calls -> total instructions
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" --once "$1" "$2" >/dev/null 2>&1
  grep -E '^(summary|totals):' "$out" | head -n 1 | awk '{print $2}'
  rm -f "$out"
}

per_call() { # loop -> instructions per call
  local full empty
  full=$(count "$1" "$n")
  empty=$(count "$1" 0)
  echo $(((full - empty) / n))
}

direct=$(per_call direct)
echo "instructions per call, $n calls each:"
echo "  direct execute_tool_call of echo: $direct"
for loop in inner floor identity; do
  calls=$(per_call "$loop")
  ratio=$(awk -v a="$calls" -v b="$direct" 'BEGIN { printf "%.2f", a / b }')
  echo "  $loop: $calls (${ratio}x direct)"
done
