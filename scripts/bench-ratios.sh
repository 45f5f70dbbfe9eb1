#!/usr/bin/env bash
# Runs the criterion benchmarks of tool-core and prints the ratios that
# matter (ours against the alternative measured in the same run), as the
# docs/performance.md's table shows them. Absolute times on a shared machine mean little;
# ratios of neighbours in one run hold up better.
#
# Usage: scripts/bench-ratios.sh [criterion args...]   e.g. --measurement-time 10
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -q -p tool-core --bench parse --bench executor --bench result --bench streaming -- "$@" >/dev/null
CRITERION_DIR="${CARGO_TARGET_DIR:-target}/criterion" python3 - <<'PY'
import json, os
def median(path):
    with open(os.path.join(os.environ["CRITERION_DIR"], path, "new/estimates.json")) as f:
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
# A streamed call read from its event lines, per argument byte: ours
# (parse into a Value + accumulate) against the two floors.
text_bytes = json.load(open(os.path.join(os.environ["CRITERION_DIR"], "stream_events_anthropic_1/value/new/benchmark.json")))["throughput"]["Bytes"]
for fmt in ["anthropic", "openai_chat", "openai_responses"]:
    for chunk in [1, 4, 16, 64]:
        group = f"stream_events_{fmt}_{chunk}"
        ours = median(f"{group}/tool_core")
        value = median(f"{group}/value")
        typed = median(f"{group}/typed")
        per = lambda t: f"{t / text_bytes:.1f} ns/byte"
        print(f"| {fmt}, {chunk} characters per event, vs parsing each line into a Value | {per(ours)} | {per(value)} | {ours/value:.2f}x |")
        print(f"| {fmt}, {chunk} characters per event, vs a typed parse of each line | {per(ours)} | {per(typed)} | {ours/typed:.2f}x |")
for size in ["1kb", "100kb", "1mb"]:
    whole = median(f"stream_linear_{size}/from_str")
    for how in ["partial_json", "anthropic", "openai_chat", "openai_responses"]:
        t = median(f"stream_linear_{size}/{how}")
        print(f"| {size} a character per event through {how} vs one from_str of the whole | {ns(t)} | {ns(whole)} | {t/whole:.2f}x |")
PY
