#!/usr/bin/env bash
# Throughput of `tool-examples call` against two hand-written floors, whole
# process runs timed on the wall clock (stdin from a file, stdout to a file).
#
# Programs: ours in parallel (`tool-examples call`) and sequential
# (`call --sequential`), and the floors `floor_value` (serde_json::Value in
# and out) and `floor_typed` (borrowed typed structs in and out), the
# binaries in tool-examples/src/bin/. Every program answers the same calls
# with the same result lines; the script checks that before it times.
#
# Rounds are interleaved: a round runs every program on every workload once,
# in an order that rotates from round to round, so a slow spell of the
# machine is shared out instead of landing on one program. One untimed
# warm-up round comes first. Figures are medians over the rounds.
#
# Every run's wall time (spawn to reap) and CPU time (user and system, from
# the reaped process's rusage) are recorded; tables give both.
#
# Usage: scripts/throughput.sh [options]          (from any directory)
#   --calls N     calls per workload (default 100000)
#   --rounds R    timed rounds (default 11)
#   --cores N     run every program under `taskset -c 0-(N-1)`
#   --against BIN another build of tool-examples (an earlier commit's, say)
#                 timed in the same rounds, in both modes, on the workloads;
#                 a table gives ours over it per round (wall and CPU)
#   --no-build    time the binaries as they are (cargo builds them otherwise)
#   --scaling     label workload, ours (both modes) and floor_typed pinned
#                 to 1, 2 (4, 8, 16 when there are that many) cores: speedups
#   --sizes       echo calls whose value is 1 KiB .. 1 MiB, about 100 MB of
#                 input each: ns per call and per argument byte
#   With neither --scaling nor --sizes: the echo and label workloads, every
#   program. Tables are Markdown, on stdout; progress goes to stderr.
#
# The binaries are read from $CARGO_TARGET_DIR/release when that is set,
# else from target/release.
#
# e.g. scripts/throughput.sh --calls 20000 --rounds 5
#      scripts/throughput.sh --against /tmp/old/tool-examples --rounds 7
#      scripts/throughput.sh --cores 1
#      scripts/throughput.sh --scaling --sizes
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
stats="$root/scripts/throughput_stats.py"
runner="$root/scripts/throughput_run.py"
release="${CARGO_TARGET_DIR:-$root/target}/release"
ours="$release/tool-examples"
against=""
do_build=true

calls=100000
rounds=11
cores=""
scaling=false
sizes=false

die() {
  echo "throughput.sh: $*" >&2
  exit 1
}

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
}

positive_integer() {
  [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 wants a positive integer, not '$2'"
}

parse_args() {
  while [ $# -gt 0 ]; do
    case $1 in
      --calls) positive_integer "$1" "${2-}"; calls=$2; shift 2 ;;
      --rounds) positive_integer "$1" "${2-}"; rounds=$2; shift 2 ;;
      --cores)
        positive_integer "$1" "${2-}"
        [ "$2" -le "$(nproc)" ] || die "--cores $2: this machine has $(nproc)"
        cores=$2
        shift 2
        ;;
      --against)
        [ -n "${2-}" ] || die "--against wants the path of a tool-examples binary"
        [ -x "$2" ] || die "--against $2: not an executable file"
        against=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
        shift 2
        ;;
      --no-build) do_build=false; shift ;;
      --scaling) scaling=true; shift ;;
      --sizes) sizes=true; shift ;;
      -h | --help) usage; exit 0 ;;
      *) die "unknown argument '$1' (see --help)" ;;
    esac
  done
}

build() {
  $do_build || return 0
  echo "building (release)..." >&2
  (cd "$root" && cargo build --release -q -p tool-examples --bins)
}

# ------------------------------------------------------------------ inputs

# The echo call of the README, with ids call-1 .. call-N.
make_echo() { # calls file
  seq 1 "$1" | sed 's/.*/{"type":"toolCall","id":"call-&","name":"echo","arguments":{"value":"Pi","ignored":"drop me"}}/' >"$2"
}

# The label tool's medium arguments (a string, two optional fields, a list),
# with ids label-1 .. label-N.
make_label() { # calls file
  seq 1 "$1" | sed 's/.*/{"type":"toolCall","id":"label-&","name":"label","arguments":{"value":"Pi","label":"answer","limit":2,"tags":["math","constant","greek"]}}/' >"$2"
}

# Echo calls whose value is `bytes` of ASCII letters, ids call-1 .. call-N.
make_sized() { # bytes calls file
  python3 - "$@" <<'EOF'
import sys
size, calls, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
value = ("abcdefghijklmnopqrstuvwxyz" * (size // 26 + 1))[:size]
with open(path, "w", encoding="ascii") as out:
    for i in range(1, calls + 1):
        out.write('{"type":"toolCall","id":"call-%d","name":"echo","arguments":{"value":"%s"}}\n' % (i, value))
EOF
}

# -------------------------------------------------------------------- jobs

# A job is one program on one input (under a core count); a round runs every
# job once. Parallel arrays, indexed by job.
job_group=() job_program=() job_cores=() job_input=() job_calls=() job_bytes=() job_last=()

clear_jobs() {
  job_group=() job_program=() job_cores=() job_input=() job_calls=() job_bytes=() job_last=()
}

add_job() { # group program cores input calls argument-bytes last-id
  job_group+=("$1") job_program+=("$2") job_cores+=("$3") job_input+=("$4")
  job_calls+=("$5") job_bytes+=("$6") job_last+=("$7")
}

# The command line of a program, into the array `command`.
command_of() { # program cores
  case $1 in
    parallel) command=("$ours" call) ;;
    sequential) command=("$ours" call --sequential) ;;
    against_parallel) command=("$against" call) ;;
    against_sequential) command=("$against" call --sequential) ;;
    floor_value | floor_typed) command=("$release/$1") ;;
    *) die "no program '$1'" ;;
  esac
  if [ -n "$2" ]; then
    command=(taskset -c "0-$(($2 - 1))" "${command[@]}")
  fi
}

output_of() { # job
  echo "$work/out.${job_group[$1]}.${job_program[$1]}"
}

# Runs job $1 once, its wall time in ns into `elapsed` and its CPU time in
# ns into `cpu` (throughput_run.py times only the program, from spawn to
# reap).
run_job() { # job
  local job=$1 output status
  output=$(output_of "$job")
  command_of "${job_program[$job]}" "${job_cores[$job]}"
  read -r elapsed cpu status < <(python3 "$runner" "${job_input[$job]}" "$output" "${command[@]}")
  [ "${status:-1}" -eq 0 ] ||
    die "${job_program[$job]} on ${job_group[$job]} failed (exit ${status:-?})"
  check_run "$job" "$output"
}

# One line per call, and the last one answers the last call (order kept).
check_run() { # job output
  local job=$1 output=$2 lines
  lines=$(wc -l <"$output")
  [ "$lines" -eq "${job_calls[$job]}" ] ||
    die "${job_program[$job]} on ${job_group[$job]}: $lines result lines for ${job_calls[$job]} calls"
  tail -n 1 "$output" | grep -qF "\"toolCallId\":\"${job_last[$job]}\"" ||
    die "${job_program[$job]} on ${job_group[$job]}: the last line does not answer ${job_last[$job]} (order lost?)"
}

# Every program's output on `group`, timestamps taken out, is floor_typed's.
check_shape() { # group
  local group=$1 reference="$work/out.$1.floor_typed" output program
  [ -f "$reference" ] || die "no floor_typed output for $group to compare with"
  sed -E 's/"timestamp":[0-9]+/"timestamp":0/' "$reference" >"$work/shape.reference"
  for output in "$work/out.$group".*; do
    program=${output##*.}
    if [ "$program" = floor_typed ]; then continue; fi
    sed -E 's/"timestamp":[0-9]+/"timestamp":0/' "$output" >"$work/shape.other"
    if ! cmp -s "$work/shape.reference" "$work/shape.other"; then
      echo "$program and floor_typed answer $group differently (timestamps aside); first difference:" >&2
      diff "$work/shape.reference" "$work/shape.other" | head -n 4 | cut -c 1-400 >&2
      die "result shapes differ on $group"
    fi
  done
}

# An untimed warm-up round that also checks shapes, then `rounds` timed
# rounds, each in an order rotated by one job from the last. Appends
# "group program calls bytes wall_ns cpu_ns round" lines to `runs_file`.
run_rounds() {
  local count=${#job_group[@]} round i job group
  echo "  warm-up and checks ($count jobs)" >&2
  for ((job = 0; job < count; job++)); do run_job "$job"; done
  for group in $(printf '%s\n' "${job_group[@]}" | sort -u); do check_shape "$group"; done
  for ((round = 0; round < rounds; round++)); do
    echo "  round $((round + 1))/$rounds" >&2
    for ((i = 0; i < count; i++)); do
      job=$(((i + round) % count))
      run_job "$job"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${job_group[$job]}" "${job_program[$job]}" \
        "${job_calls[$job]}" "${job_bytes[$job]}" "$elapsed" "$cpu" "$round" >>"$runs_file"
    done
  done
  rm -f "$work"/out.*
}

# ------------------------------------------------------------------- modes

workloads_mode() {
  local program programs=(parallel sequential floor_value floor_typed)
  echo "workloads: echo and label, $calls calls each" >&2
  make_echo "$calls" "$work/echo.jsonl"
  make_label "$calls" "$work/label.jsonl"
  clear_jobs
  if [ -n "$against" ]; then programs+=(against_parallel against_sequential); fi
  for program in "${programs[@]}"; do
    add_job echo "$program" "$cores" "$work/echo.jsonl" "$calls" 2 "call-$calls"
    add_job label "$program" "$cores" "$work/label.jsonl" "$calls" 2 "label-$calls"
  done
  runs_file="$work/runs.workloads"
  run_rounds
  echo "## Throughput: echo and label${cores:+, pinned to $cores cores}"
  echo
  python3 "$stats" workloads "$runs_file"
}

scaling_mode() {
  local counts=() count program
  for count in 1 2 4 8 16; do
    if [ "$count" -le "$(nproc)" ]; then counts+=("$count"); fi
  done
  echo "scaling: label, $calls calls, on ${counts[*]} cores" >&2
  make_label "$calls" "$work/label.jsonl"
  clear_jobs
  for count in "${counts[@]}"; do
    for program in parallel sequential floor_typed; do
      add_job "label@$count" "$program" "$count" "$work/label.jsonl" "$calls" 2 "label-$calls"
    done
  done
  runs_file="$work/runs.scaling"
  run_rounds
  echo "## Scaling with cores (taskset)"
  echo
  python3 "$stats" scaling "$runs_file"
}

sizes_mode() {
  local size label count program
  runs_file="$work/runs.sizes"
  # value bytes, its name, calls: about 100 MB of input each.
  for size in "1024 1KiB 100000" "10240 10KiB 10000" "102400 100KiB 1000" "1048576 1MiB 100"; do
    read -r bytes label count <<<"$size"
    echo "sizes: echo, $count calls of a $label value" >&2
    make_sized "$bytes" "$count" "$work/sized.jsonl"
    clear_jobs
    for program in parallel floor_typed; do
      add_job "$label" "$program" "$cores" "$work/sized.jsonl" "$count" "$bytes" "call-$count"
    done
    run_rounds
    rm -f "$work/sized.jsonl"
  done
  echo "## Cost per call as the arguments grow${cores:+, pinned to $cores cores}"
  echo
  echo "(ns / argument byte: the value's bytes; flat when the cost is linear in them.)"
  echo
  python3 "$stats" sizes "$runs_file"
}

# -------------------------------------------------------------------- main

describe_machine() {
  local cpu
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
  echo "# scripts/throughput.sh $*"
  echo
  echo "- commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (uncommitted changes)'), $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "- ${cpu:-unknown CPU}, $(nproc) cores online, $(uname -sr)"
  echo "- load average at the start: $(cut -d ' ' -f 1-3 /proc/loadavg)"
  echo "- timed rounds: $rounds (interleaved, rotating order) after a warm-up; wall and CPU time of whole process runs"
  if [ -n "$against" ]; then
    echo "- against: $against"
  fi
  echo
}

main() {
  parse_args "$@"
  command -v python3 >/dev/null || die "python3 is needed for the statistics"
  if [ -n "$cores" ] || $scaling; then
    command -v taskset >/dev/null || die "taskset (util-linux) is needed to pin cores"
  fi
  build
  work=$(mktemp -d "${TMPDIR:-/tmp}/throughput.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  cd "$work"
  describe_machine "$@"
  if ! $scaling && ! $sizes; then workloads_mode; fi
  if $scaling; then scaling_mode; fi
  if $sizes; then sizes_mode; fi
}

main "$@"
