#!/usr/bin/env bash
# Instructions per parse, counted by callgrind (repeatable on a busy
# machine), for each variant of benches/instructions.rs, and the ratios of
# ours to serde's derive and to jsonschema + serde.
#
# Usage: scripts/bench-instructions.sh [ITERATIONS]   (default 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-20000}
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }

CARGO_PROFILE_BENCH_DEBUG=line-tables-only cargo bench -p tool-core --bench instructions --no-run -q 2>/dev/null
binary=$(ls -t target/release/deps/instructions-* | grep -v '\.d$' | head -n 1)

count() { # variant iterations -> total instructions
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" "$1" "$2" >/dev/null 2>&1
  grep -E '^(summary|totals):' "$out" | head -n 1 | awk '{print $2}'
  rm -f "$out"
}

declare -A per
for variant in $("$binary" | sed 's/variants: //; s/,//g'); do
  base=$(count "$variant" 0)
  full=$(count "$variant" "$iterations")
  per[$variant]=$(( (full - base) / iterations ))
  printf '%-28s %8d instructions per call\n' "$variant" "${per[$variant]}"
done

echo
printf '%-8s %14s %22s\n' size "ours / serde" "ours / jsonschema+serde"
for size in small medium large; do
  ours=${per[$size/tool_core]}
  printf '%-8s %14s %22s\n' "$size" \
    "$(python3 -c "print(f'{$ours/${per[$size/serde]}:.2f}x')")" \
    "$(python3 -c "print(f'{$ours/${per[$size/jsonschema_serde]}:.2f}x')")"
done
printf '%-8s %14s   (all problems vs the first)\n' errors \
  "$(python3 -c "print(f'{${per[errors/tool_core]}/${per[errors/serde]}:.2f}x')")"
printf '%-8s %14s   (call line to result line, vs serde_json parse + serialize of the line)\n' executor \
  "$(python3 -c "print(f'{${per[line/tool_core]}/${per[line/serde_json_floor]}:.2f}x')")"
