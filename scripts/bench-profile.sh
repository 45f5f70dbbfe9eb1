#!/usr/bin/env bash
# Where one variant of benches/instructions.rs spends its instructions:
# runs it under callgrind with per-instruction counts and prints
# callgrind_annotate's per-function table, then per source line for the
# files of tool-core and of the generated code (the line tables of the
# build of scripts/bench-instructions.sh, whose target directory it shares).
# The profile is kept, for callgrind_annotate or kcachegrind afterwards.
#
# Usage: scripts/bench-profile.sh VARIANT [ITERATIONS]   (default 20000)
#   e.g. scripts/bench-profile.sh script/tool_core
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?usage: scripts/bench-profile.sh VARIANT [ITERATIONS]}
iterations=${2:-20000}
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }

export CARGO_TARGET_DIR=${CALLGRIND_TARGET_DIR:-target/callgrind}
CARGO_PROFILE_BENCH_DEBUG=line-tables-only cargo bench -p tool-core --bench instructions --no-run -q 2>/dev/null
binary=$(ls -t "$CARGO_TARGET_DIR"/release/deps/instructions-* | grep -v '\.d$' | head -n 1)

out="$CARGO_TARGET_DIR/callgrind.${variant//\//_}.out"
valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$out" \
  "$binary" "$variant" "$iterations" >/dev/null 2>&1
echo "profile: $out ($iterations iterations; divide by that for per-call figures)"
callgrind_annotate --threshold=99 "$out" | head -n 60
