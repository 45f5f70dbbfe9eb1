#!/usr/bin/env python3
"""Tables for scripts/throughput.sh, from its runs file.

Usage: throughput_stats.py MODE RUNS_FILE
  MODE is `workloads`, `scaling` or `sizes`. RUNS_FILE has one timed
  process run per line, tab-separated:
      group  program  calls  argument_bytes_per_call  wall_ns  [cpu_ns  round]
  (group: the workload, `label@<cores>` or `<size>`). Every figure is a
  median over the rounds; ratios are of medians of the same invocation,
  except the table against another build (`against_*` programs), whose
  ratios are medians of each round's ratio.
"""

import statistics
import sys
from collections import defaultdict

FLOOR_TYPED = "floor_typed"
FLOOR_VALUE = "floor_value"
NAMES = {
    "parallel": "ours, parallel",
    "sequential": "ours, sequential",
    "against_parallel": "against, parallel",
    "against_sequential": "against, sequential",
    FLOOR_TYPED: FLOOR_TYPED,
}
AGAINST = "against_"

# {group: {program: {round: cpu_ns}}} and the same of wall time, for the
# per-round ratios; filled by `load` when the runs file has them.
CPU = defaultdict(lambda: defaultdict(dict))
WALL = defaultdict(lambda: defaultdict(dict))


def load(path):
    """{group: {program: [ns, ...]}}, {group: (calls, argument bytes)}."""
    runs = defaultdict(lambda: defaultdict(list))
    shape = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            fields = line.rstrip("\n").split("\t")
            group, program, calls, arg_bytes, ns = fields[:5]
            runs[group][program].append(int(ns))
            shape[group] = (int(calls), int(arg_bytes))
            if len(fields) >= 7:
                cpu, round_ = int(fields[5]), int(fields[6])
                CPU[group][program][round_] = cpu
                WALL[group][program][round_] = int(ns)
    return runs, shape


def per_round(times, program, reference):
    """Each round's time of `program` over `reference`'s, where both ran."""
    ours, theirs = times[program], times[reference]
    return [ours[r] / theirs[r] for r in sorted(ours) if r in theirs and theirs[r]]


def ratio_range(ratios):
    """The median of the ratios, and their range."""
    if not ratios:
        return "n/a"
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f} – {max(ratios):.2f})"


def spread(samples):
    """Interquartile range over the median, in percent: the noise."""
    if len(samples) < 4:
        return "n/a"
    q1, _, q3 = statistics.quantiles(samples, n=4)
    return f"{100 * (q3 - q1) / statistics.median(samples):.1f}%"


def ms(ns):
    return f"{ns / 1e6:,.1f}"


def rate(calls, ns):
    return f"{calls * 1e9 / ns:,.0f}"


def ratio(ns, floor):
    return f"{ns / floor:.2f}x" if floor else "n/a"


def table(header, rows, text_columns=1):
    """A Markdown table: the first `text_columns` left, numbers right."""
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if i < text_columns else "---:" for i in range(len(header))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def name(program):
    return NAMES.get(program, program)


def workloads(runs, shape):
    for group, programs in runs.items():
        calls, _ = shape[group]
        medians = {program: statistics.median(ns) for program, ns in programs.items()}
        cpu = {program: statistics.median(by_round.values())
               for program, by_round in CPU[group].items()}
        rounds = min(len(ns) for ns in programs.values())
        print(f"### {group}: {calls:,} calls, median of {rounds} rounds\n")
        rows = [
            [
                name(program),
                ms(median),
                rate(calls, median),
                ratio(median, medians.get(FLOOR_TYPED)),
                ratio(median, medians.get(FLOOR_VALUE)),
                spread(programs[program]),
            ] + ([ms(cpu[program]), ratio(cpu[program], cpu.get(FLOOR_TYPED))]
                 if cpu else [])
            for program, median in medians.items()
        ]
        table(
            ["program", "median ms", "calls/s", "time / floor_typed",
             "time / floor_value", "IQR / median"]
            + (["CPU ms", "CPU / floor_typed"] if cpu else []),
            rows,
        )
    paired(runs)


# The per-round comparisons: (program, reference), each when both ran.
PAIRS = [
    ("parallel", FLOOR_TYPED),
    ("sequential", FLOOR_TYPED),
    ("parallel", "sequential"),
    ("parallel", AGAINST + "parallel"),
    ("sequential", AGAINST + "sequential"),
]


def paired(runs):
    """Ratios taken round by round (a slow spell hits both programs of a
    round alike), then their median and range."""
    rows = []
    for group, programs in runs.items():
        for program, reference in PAIRS:
            if program not in programs or reference not in programs or not WALL[group]:
                continue
            rows.append([
                group, f"{name(program)} / {name(reference)}",
                ratio_range(per_round(WALL[group], program, reference)),
                ratio_range(per_round(CPU[group], program, reference)),
            ])
    if not rows:
        return
    print("### Per-round ratios (median, range over the rounds)\n")
    table(["workload", "ratio", "wall time", "CPU time"], rows, text_columns=2)


def scaling(runs, shape):
    # Groups are `<workload>@<cores>`; speedups are over the 1-core median.
    by_program = defaultdict(dict)
    workload = None
    for group, programs in runs.items():
        workload, cores = group.rsplit("@", 1)
        for program, ns in programs.items():
            by_program[program][int(cores)] = ns
    calls, _ = shape[next(iter(runs))]
    rounds = min(len(ns) for c in by_program.values() for ns in c.values())
    print(f"### {workload}: {calls:,} calls, pinned to N cores, median of {rounds} rounds\n")
    rows = []
    for program, per_cores in by_program.items():
        one = statistics.median(per_cores[1]) if 1 in per_cores else None
        for cores in sorted(per_cores):
            median = statistics.median(per_cores[cores])
            rows.append([
                name(program), str(cores), ms(median), rate(calls, median),
                f"{one / median:.2f}x" if one else "n/a", spread(per_cores[cores]),
            ])
    table(["program", "cores", "median ms", "calls/s", "speedup over 1 core",
           "IQR / median"], rows)


def sizes(runs, shape):
    rows = []
    for group, programs in runs.items():
        calls, arg_bytes = shape[group]
        floor = statistics.median(programs[FLOOR_TYPED]) if FLOOR_TYPED in programs else None
        for program, ns in programs.items():
            median = statistics.median(ns)
            rows.append([
                group, f"{calls:,}", name(program), ms(median), f"{median / calls:,.0f}",
                f"{median / (calls * arg_bytes):.3f}", ratio(median, floor), spread(ns),
            ])
    rounds = min(len(ns) for p in runs.values() for ns in p.values())
    print(f"### echo with a growing value (about 100 MB of input each), median of {rounds} rounds\n")
    table(["value", "calls", "program", "median ms", "ns / call", "ns / argument byte",
           "time / floor_typed", "IQR / median"], rows, text_columns=3)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("workloads", "scaling", "sizes"):
        sys.exit(__doc__)
    mode, path = sys.argv[1:]
    runs, shape = load(path)
    if not runs:
        sys.exit(f"{path}: no runs")
    {"workloads": workloads, "scaling": scaling, "sizes": sizes}[mode](runs, shape)


if __name__ == "__main__":
    main()
