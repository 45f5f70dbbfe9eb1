#!/usr/bin/env bash
# Rebuild time of 60 parameter structs: #[derive(ToolParams)] (a parser and
# a schema) against serde's Deserialize + schemars' JsonSchema on the same
# structs (the two derives a user needs for the same two products).
#
# Generates a two-crate workspace under target/compile-bench, builds both
# once (dependencies warm), then times rebuilding each after touching its
# source, best of RUNS, and prints the ratio.
#
# Usage: scripts/compile-time.sh [RUNS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
runs=${1:-5}
bench=target/compile-bench
mkdir -p "$bench/ours/src" "$bench/theirs/src"

cat >"$bench/Cargo.toml" <<TOML
[workspace]
resolver = "3"
members = ["ours", "theirs"]

[workspace.dependencies]
tool-core = { path = "$root/tool-core" }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
schemars = "1"
TOML
cat >"$bench/ours/Cargo.toml" <<'TOML'
[package]
name = "ours"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
tool-core.workspace = true
TOML
cat >"$bench/theirs/Cargo.toml" <<'TOML'
[package]
name = "theirs"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
serde.workspace = true
schemars.workspace = true
TOML

# The same 60 structs for both, differing only in their derive lines.
structs() { # $1: derive line, $2: container attribute line
  for i in $(seq 1 60); do
    cat <<RS
/// Parameters of tool number $i.
$1
$2
pub struct Params$i {
    /// What to look for
    pub query: String,
    /// How many results at most
    pub limit: Option<u32>,
    /// Labels to filter by
    pub tags: Vec<String>,
    pub verbose: bool,
    pub threshold: f64,
    pub offset: Option<u64>,
    pub nested: Inner$i,
}

/// A nested part of tool $i.
$1
pub struct Inner$i {
    pub name: String,
    pub count: i32,
}

RS
  done
}
{
  echo "#![allow(dead_code)]"
  echo "use tool_core::ToolParams;"
  structs "#[derive(ToolParams)]" "#[param(rename_all = \"camelCase\")]"
} >"$bench/ours/src/lib.rs"
{
  echo "#![allow(dead_code)]"
  echo "use schemars::JsonSchema;"
  echo "use serde::Deserialize;"
  structs "#[derive(Deserialize, JsonSchema)]" "#[serde(rename_all = \"camelCase\")]"
} >"$bench/theirs/src/lib.rs"

cd "$bench"
cargo build -q -p ours -p theirs 2>&1 | tail -n 5

best_of() { # crate
  local best=""
  for _ in $(seq 1 "$runs"); do
    touch "$1/src/lib.rs"
    local start end elapsed
    start=$(date +%s%N)
    cargo build -q -p "$1"
    end=$(date +%s%N)
    elapsed=$(((end - start) / 1000000))
    if [ -z "$best" ] || [ "$elapsed" -lt "$best" ]; then best=$elapsed; fi
  done
  echo "$best"
}

ours=$(best_of ours)
theirs=$(best_of theirs)
echo "rebuild of 60 parameter structs (debug), best of $runs:"
echo "  #[derive(ToolParams)]:                 $ours ms"
echo "  #[derive(Deserialize, JsonSchema)]:    $theirs ms"
python3 -c "print(f'  ratio (ours / serde+schemars):       {$ours/$theirs:.2f}x')"
