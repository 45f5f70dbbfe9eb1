#!/usr/bin/env bash
# What a user pays for: the distinct crates (tool-core's own included) each
# configuration of the published crates pulls in, checked against its
# limit, so that a dependency added to a default tree fails CI instead of
# landing unseen. The counts are cargo tree's, normal dependencies only
# (what a user's build compiles), each crate once whatever its features.
#
# Usage: scripts/tree-sizes.sh          (checks every limit)
#        scripts/tree-sizes.sh --print  (only prints the counts)
set -euo pipefail
cd "$(dirname "$0")/.."

# package | features ("default" for the defaults) | the most crates allowed
limits=(
  "tool-core|default|50"
  "tool-core|derive|25"
  "tool-core|derive,runtime|45"
)

count() {
  local package=$1 features=$2
  local args=(-p "$package" -e normal --prefix none)
  if [[ $features != default ]]; then
    args+=(--no-default-features --features "$features")
  fi
  cargo tree "${args[@]}" | sed -e 's/ (\*)$//' -e 's/ (proc-macro)$//' | sort -u | wc -l
}

failed=0
for limit in "${limits[@]}"; do
  IFS='|' read -r package features most <<<"$limit"
  crates=$(count "$package" "$features")
  if [[ ${1:-} == --print ]]; then
    echo "$package [$features]: $crates crates"
  elif [[ $crates -gt $most ]]; then
    echo "tree-sizes: $package [$features] pulls $crates crates, over its limit of $most (cargo tree -p $package -e normal)" >&2
    failed=1
  else
    echo "$package [$features]: $crates crates (at most $most)"
  fi
done
exit $failed
