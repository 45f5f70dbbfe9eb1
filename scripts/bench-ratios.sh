#!/usr/bin/env bash
# Runs the criterion benchmarks of tool-core and prints the ratios that
# matter (ours against the alternative measured in the same run), as the
# docs/performance.md's table shows them. Absolute times on a shared machine mean little;
# ratios of neighbours in one run hold up better.
#
# Usage: scripts/bench-ratios.sh [criterion args...]   e.g. --measurement-time 10
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -q -p tool-core --bench parse --bench executor --bench result -- "$@" >/dev/null
python3 - <<'PY'
import json, os
def median(path):
    with open(os.path.join("target/criterion", path, "new/estimates.json")) as f:
        return json.load(f)["median"]["point_estimate"]
def ns(x):
    return f"{x:.0f} ns" if x < 10_000 else f"{x/1000:.1f} µs"
print("| benchmark | ours | alternative | ratio |")
print("| --- | --- | --- | --- |")
for size in ["small", "medium", "large", "script"]:
    ours = median(f"parse_{size}/tool_core/{size}")
    serde = median(f"parse_{size}/serde/{size}")
    both = median(f"parse_{size}/jsonschema_serde/{size}")
    print(f"| parse {size} vs serde derive | {ns(ours)} | {ns(serde)} | {ours/serde:.2f}x |")
    print(f"| parse {size} vs jsonschema + serde | {ns(ours)} | {ns(both)} | {ours/both:.2f}x |")
for args in ["medium", "script"]:
    ours = median(f"errors_{args}/tool_core_all_problems")
    serde = median(f"errors_{args}/serde_first_error")
    print(f"| {args}, 3 problems: all reported vs serde's first | {ns(ours)} | {ns(serde)} | {ours/serde:.2f}x |")
ours = median("executor_line/tool_core")
floor = median("executor_line/serde_json_floor")
print(f"| executor, call line to result line vs serde_json round trip of the line | {ns(ours)} | {ns(floor)} | {ours/floor:.2f}x |")
par = median("executor_batch_1000/parallel")
seq = median("executor_batch_1000/sequential")
print(f"| 1,000 calls, parallel vs sequential | {ns(par)} | {ns(seq)} | {par/seq:.2f}x |")
for case in ["echo", "failure", "text_4k"]:
    base = median(f"result_json_{case}/write_json")
    for how in ["to_string", "to_vec", "to_writer", "serde_derive"]:
        t = median(f"result_json_{case}/{how}")
        print(f"| result ({case}) written by {how} vs write_json | {ns(t)} | {ns(base)} | {t/base:.2f}x |")
PY
