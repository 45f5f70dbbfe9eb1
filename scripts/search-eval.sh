#!/usr/bin/env bash
# How often tool_search finds the right tool for real requests, beside
# rank_bm25 on the same text: runs the search_eval bench (the labelled set
# in tool-core/benches/data/search_eval: BFCL's requests over a catalogue
# of its functions, each tool deferred with its real schema, each request
# sent to tool_search through execute_tool_call), which prints recall@1,
# recall@5 and MRR@10 and exports every tool's text and our top 10; then
# scripts/search_eval_reference.py ranks the same text with rank_bm25's
# BM25Okapi and prints both side by side. Installs rank_bm25 in a venv
# under the target directory the first time (as bm25-compare.sh does).
# With --embedding, also the static-embedding models found shipped in
# registry packages (scripts/search_eval_embedding.py; PyPI's
# tokenlearn-static-model and wordllama, installed in the same venv the
# first time).
# A measurement for docs/performance.md, not a test.
#
# Usage: scripts/search-eval.sh [--embedding]
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/rank-bm25-venv.sh

export_file="$target/search-eval-export.json"
cargo bench -q -p tool-core --features schema-check --bench search_eval -- --export "$export_file"
echo
"$venv/bin/python" scripts/search_eval_reference.py "$export_file"
if [[ ${1:-} == --embedding ]]; then
  if ! "$venv/bin/python" -c "import static_model, wordllama" 2>/dev/null; then
    "$venv/bin/pip" install -q "tokenlearn-static-model==0.1.1" "wordllama==0.4.0.post1" numpy
  fi
  "$venv/bin/python" scripts/search_eval_embedding.py "$export_file" "$target/wordllama-cache"
fi
