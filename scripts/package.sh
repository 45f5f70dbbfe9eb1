#!/usr/bin/env bash
# The published crates as crates.io would get them. `cargo package` copies
# each into a .crate of its own, without the workspace around it; each is
# then unpacked and checked from there, with its default features and with
# all, in a scratch
# workspace whose only link between them is `[patch.crates-io]` (what a
# published dependency on the others resolves to). A file read from
# outside a crate's folder, a dependency or a feature only the workspace
# supplies, fails here rather than at `cargo publish`. Then each .crate
# must hold its README and both license files, and stay small (it is
# everyone's download).
#
# Checked, not built: everything a package can lack (a file, a dependency,
# a feature) shows in `cargo check`, and `cargo package`'s own verify
# builds with code generation, which cost CI ~100 s. The scratch workspace
# shares the target directory and the workspace's dev profile, so the
# dependencies whose features are the same are reused; our crates there are
# path crates of their own (other paths, other artifacts), so nothing of
# `cargo test --workspace`'s build is touched and this may run beside it.
# `--allow-dirty` lets .ci/run pass before a commit; what is packaged is
# the working tree either way.
#
# Usage: scripts/package.sh   (from any directory)
set -euo pipefail
cd "$(dirname "$0")/.."

crates=(tool-core-macros tool-core tool-mcp)
# A .crate is compressed source; the largest is ~180 KiB today.
max_bytes=$((1024 * 1024))

args=()
for crate in "${crates[@]}"; do
  args+=(-p "$crate")
done
cargo package --locked --allow-dirty --no-verify "${args[@]}"

target_dir=$(cargo metadata --no-deps --format-version 1 |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
scratch="$target_dir/package/check"
rm -rf "$scratch"
# One level down: a path that climbs out of a crate must find nothing
# there (the scratch manifest included).
mkdir -p "$scratch/crates"

failed=0
members=()
patches=()
for crate in "${crates[@]}"; do
  id=$(cargo pkgid -p "$crate")
  unpacked="$crate-${id##*[#@]}"
  file="$target_dir/package/$unpacked.crate"
  listing=$(tar -tzf "$file")
  for needed in README.md LICENSE-MIT LICENSE-APACHE; do
    if ! grep -qx "[^/]*/$needed" <<<"$listing"; then
      echo "package: $crate's package has no $needed" >&2
      failed=1
    fi
  done
  bytes=$(stat -c %s "$file")
  if ((bytes > max_bytes)); then
    echo "package: $crate's package is $bytes bytes, over $max_bytes; see cargo package --list -p $crate" >&2
    failed=1
  fi
  echo "package: $crate: $(wc -l <<<"$listing") files, $((bytes / 1024)) KiB"
  tar -xzf "$file" -C "$scratch/crates"
  members+=("\"crates/$unpacked\"")
  patches+=("$crate = { path = \"crates/$unpacked\" }")
done

# Fresh sources: the unpacked files keep the times the archive gives them,
# and cargo judges a path crate's artifacts in the shared target directory
# by those times, so an earlier run's build of the same path could pass
# for this one (it did once, beside the tests: a tool-mcp of now checked
# against an older tool-core). Our three crates are always checked again.
find "$scratch/crates" -type f -exec touch {} +
# The workspace's dev profile (a packaged manifest has none), so the
# dependencies' artifacts are the ones clippy and the tests made.
{
  echo "[workspace]"
  echo "resolver = \"3\""
  echo "members = [$(IFS=,; echo "${members[*]}")]"
  echo
  echo "[patch.crates-io]"
  printf '%s\n' "${patches[@]}"
  echo
  sed -n '/^\[profile\.dev[].]/,/^$/p' Cargo.toml
} >"$scratch/Cargo.toml"
# The versions the workspace locked; the scratch copy drops the members it
# does not have.
cp Cargo.lock "$scratch/Cargo.lock"

# As a user's default build has them, and with every feature on.
for features in --workspace "--workspace --all-features"; do
  # shellcheck disable=SC2086 # two words
  (cd "$scratch" && CARGO_TARGET_DIR="$target_dir" cargo check --quiet $features)
done
echo "package: the packaged crates check alone, with their default features and with all"
exit "$failed"
