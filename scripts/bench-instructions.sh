#!/usr/bin/env bash
# Instructions per parse, counted by callgrind (repeatable on a busy
# machine), for each variant of benches/instructions.rs, and the ratios of
# ours to serde's derive and to jsonschema + serde.
#
# The build has line tables (for scripts/bench-profile.sh) and lives in its
# own target directory (target/callgrind), so that switching between this
# script and a plain `cargo bench` does not rebuild every dependency.
#
# Usage: scripts/bench-instructions.sh [ITERATIONS] [FILTER]   (default
# 20000; FILTER counts only the variants whose name contains it, such as
# `stream_`, and prints only the tables those fill)
# ALLOCATOR=mimalloc counts under mimalloc (benches/instructions_mimalloc.rs,
# the allocator tool-examples uses) instead of the system's malloc.
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-20000}
filter=${2:-}
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }

export CARGO_TARGET_DIR=${CALLGRIND_TARGET_DIR:-target/callgrind}
bench=instructions
[ "${ALLOCATOR:-}" = mimalloc ] && bench=instructions_mimalloc
CARGO_PROFILE_BENCH_DEBUG=line-tables-only cargo bench -p tool-core --bench "$bench" --no-run -q 2>/dev/null
binary=$(ls -t "$CARGO_TARGET_DIR"/release/deps/"$bench"-* | grep -v '\.d$' | head -n 1)

count() { # variant iterations -> total instructions
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" "$1" "$2" >/dev/null 2>&1
  grep -E '^(summary|totals):' "$out" | head -n 1 | awk '{print $2}'
  rm -f "$out"
}

declare -A per
for variant in $("$binary" | sed 's/variants: //; s/,//g'); do
  [[ $variant == *"$filter"* ]] || continue
  # A batch iteration is 1,000 calls: fewer iterations, the same per call.
  runs=$iterations calls_per_run=1
  # A stream iteration is one whole streamed call (thousands of events):
  # fewer iterations, counted per call.
  case $variant in
    batch/*) runs=$(( iterations / 1000 + 1 )) calls_per_run=1000 ;;
    stream_linear_*) runs=2 ;;
    stream_*) runs=$(( iterations / 4000 + 1 )) ;;
  esac
  base=$(count "$variant" 0)
  full=$(count "$variant" "$runs")
  per[$variant]=$(( (full - base) / (runs * calls_per_run) ))
  printf '%-28s %8d instructions per call\n' "$variant" "${per[$variant]}"
done

ratio() { python3 -c "print(f'{$1/$2:.2f}x')"; }
counted() { [ -n "${per[$1]:-}" ]; }

if counted small/tool_core && counted batch/parallel && counted result_echo/write_json; then
echo
printf '%-8s %14s %22s\n' size "ours / serde" "ours / jsonschema+serde"
for size in small medium large script; do
  ours=${per[$size/tool_core]}
  printf '%-8s %14s %22s\n' "$size" \
    "$(ratio "$ours" "${per[$size/serde]}")" \
    "$(ratio "$ours" "${per[$size/jsonschema_serde]}")"
done
printf '%-8s %14s   (medium, 3 problems: all of them vs the first)\n' errors \
  "$(ratio "${per[errors/tool_core]}" "${per[errors/serde]}")"
printf '%-8s %14s   (script, 3 problems: all of them vs the first)\n' errors \
  "$(ratio "${per[errors_script/tool_core]}" "${per[errors_script/serde]}")"
printf '%-8s %14s   (call line to result line, vs serde_json parse + serialize of the line)\n' executor \
  "$(ratio "${per[line/tool_core]}" "${per[line/serde_json_floor]}")"
printf '%-8s %14s   (the same, the result written by serde_json::to_vec instead of write_json)\n' to_vec \
  "$(ratio "${per[line/tool_core_to_vec]}" "${per[line/serde_json_floor]}")"
printf '%-8s %14s   (the same, echo a #[tools] method vs a #[tool] function)\n' method \
  "$(ratio "${per[line/tool_core_method]}" "${per[line/tool_core]}")"
printf '%-8s %14s   (1,000 echo calls, execute_tool_calls parallel vs sequential)\n' batch \
  "$(ratio "${per[batch/parallel]}" "${per[batch/sequential]}")"
echo
printf '%-16s %10s %10s %10s %14s   (a result written as JSON, each / write_json)\n' result to_string to_vec to_writer serde_derive
for case in echo failure text_4k; do
  base=${per[result_$case/write_json]}
  printf '%-16s %10s %10s %10s %14s\n' "$case" \
    "$(ratio "${per[result_$case/to_string]}" "$base")" \
    "$(ratio "${per[result_$case/to_vec]}" "$base")" \
    "$(ratio "${per[result_$case/to_writer]}" "$base")" \
    "$(ratio "${per[result_$case/serde_derive]}" "$base")"
done
fi
if counted stream_anthropic_1/tool_core && counted stream_openai_responses_64/typed; then
echo
printf '%-20s %7s %14s %14s %16s   (a streamed call read from its event lines: ours = parse into a Value + accumulate)\n' \
  stream chunk "ours / Value" "ours / typed" "accumulate alone"
for format in anthropic openai_chat openai_responses; do
  for chunk in 1 4 16 64; do
    group=stream_${format}_${chunk}
    ours=${per[$group/tool_core]} value=${per[$group/value]}
    printf '%-20s %7s %14s %14s %16s\n' "$format" "$chunk" \
      "$(ratio "$ours" "$value")" \
      "$(ratio "$ours" "${per[$group/typed]}")" \
      "$(ratio "$(( ours - value ))" "$value")"
  done
done
fi
if counted stream_linear_1kb/from_str && counted stream_linear_1mb/openai_responses; then
echo
printf '%-10s %14s %14s %14s %14s   (a character per event, each / one from_str of the whole)\n' \
  size partial_json anthropic openai_chat openai_responses
for size in 1kb 100kb 1mb; do
  base=${per[stream_linear_$size/from_str]}
  printf '%-10s %14s %14s %14s %14s\n' "$size" \
    "$(ratio "${per[stream_linear_$size/partial_json]}" "$base")" \
    "$(ratio "${per[stream_linear_$size/anthropic]}" "$base")" \
    "$(ratio "${per[stream_linear_$size/openai_chat]}" "$base")" \
    "$(ratio "${per[stream_linear_$size/openai_responses]}" "$base")"
done
fi
