#!/usr/bin/env bash
# Token counts of the tools block for 500 tools, in each way of sending
# them (docs/providers.md, "What stays cached, by mode"): the bench
# tool-core/benches/tools_block.rs writes each block as the request would
# carry it, and scripts/tools_block_tokens.mjs counts its tokens with
# OpenAI's o200k_base (js-tiktoken from npm, installed under the target
# directory the first time). A measurement for the docs, not a test.
#
# Usage: scripts/tools-block-tokens.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# Absolute: the bench runs in tool-core/, the counting here.
target=$(realpath -m "${CARGO_TARGET_DIR:-target}")
tokens="$target/tokens"
if [[ ! -d $tokens/node_modules/js-tiktoken ]]; then
  mkdir -p "$tokens"
  (cd "$tokens" && npm install --silent --no-audit --no-fund js-tiktoken@1.0.21)
fi
blocks="$target/tools-blocks"
cargo bench -q -p tool-core --features schema-check --bench tools_block -- "$blocks"
# Run from beside its node_modules: ES modules resolve from the script's place.
cp scripts/tools_block_tokens.mjs "$tokens/"
node "$tokens/tools_block_tokens.mjs" "$blocks"
