#!/usr/bin/env bash
# Ten thousand tools: runs the `many_tools` criterion bench and prints its
# ratios (each row against what it is compared with in the same run), as
# docs/performance.md's "Many tools" section shows them; then the
# `search_latency` bench (p50/p99 of tool_search calls, the registry's
# memory by a counting allocator).
#
# Usage: scripts/bench-many-tools.sh [criterion args...]   e.g. --measurement-time 10
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -q -p tool-core --features schema-check --bench many_tools -- "$@" >/dev/null
CRITERION_DIR="${CARGO_TARGET_DIR:-target}/criterion" python3 - <<'PY'
import json, os
def median(path):
    with open(os.path.join(os.environ["CRITERION_DIR"], path, "new/estimates.json")) as f:
        return json.load(f)["median"]["point_estimate"]
def shown(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.1f} ms"
    return f"{ns / 1e3:.1f} µs"
def row(what, ours, theirs):
    a, b = median(ours), median(theirs)
    ratio = f"{a / b:.2f}x" if a / b >= 0.01 else f"{a / b:.4f}x"
    print(f"| {what} | {shown(a)} | {shown(b)} | {ratio} |")
print("| what (10,000 tools) | ours | compared with | ratio |")
print("| --- | ---: | ---: | ---: |")
r = "many_tools_register/"
for suffix, count in [("", "10,000"), ("_1000", "1,000")]:
    hand = r + "definitions_by_hand" + suffix
    row(f"{count} tools: `Toolset` built (`with` each, `deferred`) vs the `Vec<ToolDefinition>` by hand", r + "toolset_build" + suffix, hand)
    row(f"{count} tools: `register_all` of that set vs by hand", r + "register_all" + suffix, hand)
    row(f"{count} tools: one `register` call each vs by hand", r + "register_each" + suffix, hand)
for what in ["definitions_by_hand", "toolset_build", "register_all", "register_each"]:
    row(f"`{what}`: 10,000 tools vs 1,000 (10.00x is linear)", r + what, r + what + "_1000")
d = "many_tools_definitions/"
row("`definitions_for` (10,000, none deferred) vs cloning the list", d + "definitions_for", d + "clone_floor")
row("`definitions_for_native_search` (10,000 deferred) vs cloning the list", d + "definitions_for_native_search", d + "clone_floor")
row("`definitions_for` (10,000 deferred: `tool_search` alone) vs cloning the list", d + "definitions_for_deferred", d + "clone_floor")
for name in ["neutral", "openai", "openai-strict", "openai-responses", "openai-responses-strict",
             "anthropic", "anthropic-strict", "gemini", "gemini-legacy", "mcp"]:
    row(f"`{name}` definitions of the 10,000 vs `serde_json::to_value`", d + f"format_{name}", d + "to_value_floor")
    deferred = os.path.join(os.environ["CRITERION_DIR"], d + f"format_{name}_deferred")
    if os.path.isdir(deferred):
        row(f"`{name}`, the 10,000 marked `defer_loading`, vs `serde_json::to_value`", d + f"format_{name}_deferred", d + "to_value_floor")
s = "many_tools_search/"
row("`tool_search` \"create a jira ticket\" vs `echo`, same executor and registry", s + "bm25_one", s + "echo")
row("`tool_search`, the 50 written queries in turn, vs `echo`", s + "bm25_mixed", s + "echo")
row("`tool_search` regex `(create\\|open).*ticket` vs `echo`", s + "regex", s + "echo")
row("the first `tool_search` (builds the index) vs a later one", s + "first_search", s + "bm25_one")
PY
echo
cargo bench -q -p tool-core --features schema-check --bench search_latency
