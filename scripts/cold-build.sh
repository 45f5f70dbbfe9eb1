#!/usr/bin/env bash
# A user's one-struct crate built from nothing: tool-core's parse-only
# configuration against serde + schemars + jsonschema (scripts/cold-build/),
# each build in an empty target directory, the two interleaved RUNS times
# (default 3) so that both see the same machine. Prints each wall time, the
# medians, their ratio (ours / theirs) and each crate count. Dependencies'
# sources are downloaded first, so the time is the build's.
set -euo pipefail
cd "$(dirname "$0")/cold-build"
runs=${RUNS:-3}
for side in ours theirs; do
  (cd "$side" && cargo fetch --quiet)
done
declare -A times
for run in $(seq "$runs"); do
  for side in ours theirs; do
    target=$(mktemp -d)
    started=$(date +%s.%N)
    (cd "$side" && CARGO_TARGET_DIR="$target" CARGO_INCREMENTAL=0 cargo build --quiet)
    elapsed=$(echo "$(date +%s.%N) - $started" | bc)
    rm -rf "$target"
    times[$side]+="$elapsed "
    echo "run $run $side: ${elapsed} s"
  done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ours=$(median "${times[ours]}")
theirs=$(median "${times[theirs]}")
crates() { (cd "$1" && cargo tree -e normal --prefix none | sed -e 's/ (\*)$//' -e 's/ (proc-macro)$//' | sort -u | wc -l); }
echo "median ours ${ours} s, theirs ${theirs} s, ratio $(echo "scale=2; $ours / $theirs" | bc)"
echo "crates: ours $(crates ours), theirs $(crates theirs)"
