#!/usr/bin/env bash
# The published crates as crates.io would get them. `cargo package` copies
# each into a .crate of its own, without the workspace around it, and
# builds it from there, in dependency order (the macros, tool-core,
# tool-mcp); each one's dependencies on the others resolve through a local
# registry of the packages just made, so nothing needs to be on crates.io
# yet. A file read from outside a crate's folder, a dependency or a feature
# only the workspace supplies, fails here rather than at `cargo publish`.
# Then each .crate must hold its README and both license files, and stay
# small (it is everyone's download).
#
# The packaged manifests carry no [profile] (those are the workspace's), so
# the build is given the workspace's dev profile: the dependencies whose
# features are the same as in `cargo test --workspace` are then reused from
# the target directory instead of built again with full debug info.
# `--allow-dirty` lets .ci/run pass before a commit; what is packaged is
# the working tree either way.
#
# Usage: scripts/package.sh   (last, as .ci/run runs it: it removes our
#                              crates' builds first)
set -euo pipefail
cd "$(dirname "$0")/.."

crates=(tool-core-macros tool-core tool-mcp)
# A .crate is compressed source; the largest is ~180 KiB today.
max_bytes=$((1024 * 1024))

args=()
for crate in "${crates[@]}"; do
  args+=(-p "$crate")
done

# Cargo unpacks each package of that local registry under
# $CARGO_HOME/registry/src/-<hash of the registry's path>/ and, finding a
# folder there already (a run before this one, from the same checkout
# path), builds the old sources it holds instead of the new package: CI
# once verified tool-mcp against a tool-core from an earlier commit and
# failed on code the tree no longer had. The local registry's folders are
# the ones whose name starts with "-" (no host); crates.io's are untouched.
cargo_home=${CARGO_HOME:-$HOME/.cargo}
for crate in "${crates[@]}"; do
  id=$(cargo pkgid -p "$crate")
  rm -rf "$cargo_home"/registry/src/-*/"$crate-${id##*[#@]}"
done
# Cargo takes a registry package as immutable, so a verify build of
# tool-core 0.1.0 from that local registry left in the target directory by
# an earlier run (the same version, other sources) would be reused as it
# is; only a clean target, as CI's first run, is safe without this. It
# removes our three crates' builds, which is why .ci/run packages last.
cargo clean --quiet -p tool-core-macros -p tool-core -p tool-mcp
cargo package --locked --allow-dirty "${args[@]}" \
  --config 'profile.dev.debug="line-tables-only"' \
  --config 'profile.dev.package."*".debug=false'

target_dir=$(cargo metadata --no-deps --format-version 1 |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
failed=0
for crate in "${crates[@]}"; do
  id=$(cargo pkgid -p "$crate")
  file="$target_dir/package/$crate-${id##*[#@]}.crate"
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
done
exit "$failed"
