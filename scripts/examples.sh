#!/usr/bin/env bash
# Runs every example of the workspace (`<crate>/examples/<name>.rs`, found
# here, so a new one cannot be left out). Each asserts what it shows, so an
# example that fails, or does not end by itself within a minute, fails this
# script; its output is shown only then.
#
# The examples are built with the whole workspace's features, as
# `cargo test --workspace` builds (so after it nothing is rebuilt), and run
# from the target directory.
#
# Usage: scripts/examples.sh   (from any directory)
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
  echo "examples.sh: $*" >&2
  exit 1
}

# Programs for a check of their own, not examples that assert and end:
# the conformance suite's server and client (tool-mcp/examples/conformance_*,
# run by interop/checks/conformance.sh, which gives them their URL).
run_by_a_check=(conformance_client)

names=()
for file in */examples/*.rs; do
  name=$(basename "$file" .rs)
  [[ " ${run_by_a_check[*]} " == *" $name "* ]] && continue
  # Every example lands in target/debug/examples/<name>: names must differ.
  [[ " ${names[*]-} " != *" $name "* ]] || die "two examples are named $name"
  names+=("$name")
done
[ ${#names[@]} -gt 0 ] || die "no examples found"

cargo build -q --workspace --examples
target=$(cargo metadata --no-deps --format-version 1 |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
[ -d "$target" ] || die "no target directory in cargo metadata"

output=$(mktemp)
trap 'rm -f "$output"' EXIT
for name in "${names[@]}"; do
  start=${EPOCHREALTIME/./}
  if ! timeout 60 "$target/debug/examples/$name" >"$output" 2>&1; then
    cat "$output" >&2
    die "example $name failed"
  fi
  elapsed=$(((${EPOCHREALTIME/./} - start) / 1000))
  printf 'ok  %-14s %5d ms\n' "$name" "$elapsed" >&2
done
