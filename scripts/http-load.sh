#!/usr/bin/env bash
# Load and cost of tools/call over streamable HTTP (tool-mcp/benches/http_load.rs):
# ours against rmcp alone, 1/16/256 clients, then memory per idle session.
# Runs it four times: with sessions, on rmcp's default client (a new TCP
# connection per POST) and on --pooled clients (kept-alive connections);
# then without sessions (--stateless: 2025-06-18 and 2026-07-28 clients),
# both ways again. Markdown on stdout. scripts/stateless-load.sh measures
# the stateless servers alone under wrk; scripts/nginx-load.sh, processes
# behind nginx.
#
# Usage: scripts/http-load.sh [--quick]     (about 8 minutes; --quick about 1)
set -euo pipefail
cd "$(dirname "$0")/.."

cargo bench -q -p tool-mcp --bench http_load --no-run
cargo bench -q -p tool-mcp --bench http_load -- "$@"
echo
cargo bench -q -p tool-mcp --bench http_load -- --pooled "$@"
echo
cargo bench -q -p tool-mcp --bench http_load -- --stateless "$@"
echo
cargo bench -q -p tool-mcp --bench http_load -- --stateless --pooled "$@"
