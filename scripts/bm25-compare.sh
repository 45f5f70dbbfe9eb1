#!/usr/bin/env bash
# Compares tool_search's BM25 ranking over the 10,000 generated tools with
# rank_bm25's BM25Okapi (scripts/bm25_reference.py): exports every tool's
# searchable text and our top 10 for each query from the search_latency
# bench, then ranks the same text in Python. Installs rank_bm25 in a venv
# under the target directory the first time. A measurement for
# docs/performance.md, not a test.
#
# Usage: scripts/bm25-compare.sh [QUERIES]   (default 2,000; the first 50
#        are the ones written by hand in benches/support/many_tools.rs)
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/rank-bm25-venv.sh

export_file="$target/bm25-export.json"
cargo bench -q -p tool-core --features schema-check --bench search_latency -- "${1:-2000}" --export "$export_file"
echo
"$venv/bin/python" scripts/bm25_reference.py "$export_file"
