#!/usr/bin/env bash
# Load and cost of tools/call over streamable HTTP (tool-mcp/benches/http_load.rs):
# ours against rmcp alone, 1/16/256 clients, then memory per open session.
# Runs it twice: with rmcp's default client (a new TCP connection per POST)
# and with --pooled clients (kept-alive connections). Markdown on stdout.
#
# Usage: scripts/http-load.sh [--quick]     (about 3 minutes; --quick about 30 s)
set -euo pipefail
cd "$(dirname "$0")/.."

cargo bench -q -p tool-mcp --bench http_load --no-run
cargo bench -q -p tool-mcp --bench http_load -- "$@"
echo
cargo bench -q -p tool-mcp --bench http_load -- --pooled "$@"
