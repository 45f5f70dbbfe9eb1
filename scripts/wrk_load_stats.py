"""Figures of scripts/nginx-load.sh and scripts/stateless-load.sh: `parse`
turns one wrk run and the CPU counters read around it into a line of
raw.tsv; `report` turns raw.tsv into Markdown tables: medians over the
rounds, and ratios of two setups taken within the same round."""

import os
import re
import statistics
import sys
from collections import defaultdict

FIELDS = [
    "setup", "clients", "round", "rps", "p50_us", "p99_us", "errors",
    "servers", "proxy", "wrk", "machine",
]


def micros(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 1, "ms": 1e3, "s": 1e6, "m": 60e6}[unit]


def parse(out, timing, setup, clients, round_, start, end, ticks, cpus, before, after):
    text = open(out).read()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p50 = micros(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1))
    p99 = micros(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
    errors = 0
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    if non_2xx:
        errors += int(non_2xx.group(1))
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if sockets:
        errors += sum(int(n) for n in sockets.groups())
    wall = float(end) - float(start)
    servers, proxy = [], 0.0
    for entry in cpus.split(","):
        role, used = entry.split("=")
        cores = int(used) / float(ticks) / wall
        if role == "server":
            servers.append(cores)
        else:
            proxy += cores
    wrk_user, wrk_system = (float(t) for t in open(timing).read().split())
    busy_before, total_before = (int(t) for t in before.split())
    busy_after, total_after = (int(t) for t in after.split())
    machine = (busy_after - busy_before) / max(total_after - total_before, 1) * os.cpu_count()
    row = [
        setup, clients, round_, f"{rps:.1f}", f"{p50:.0f}", f"{p99:.0f}", str(errors),
        ",".join(f"{c:.3f}" for c in servers), f"{proxy:.3f}",
        f"{(wrk_user + wrk_system) / wall:.3f}", f"{machine:.3f}",
    ]
    print("\t".join(row))


def duration(us):
    return f"{us:.0f} µs" if us < 1000 else f"{us / 1000:.1f} ms"


def report(raw, setups, ratios):
    """setups: key=Display name, in the order shown; ratios: top/bottom keys."""
    rows = [dict(zip(FIELDS, line.rstrip("\n").split("\t"))) for line in open(raw) if line.strip()]
    by = defaultdict(list)
    for row in rows:
        by[(int(row["clients"]), row["setup"])].append(row)
    med = statistics.median
    clients = sorted({key[0] for key in by})
    names = dict(setup.split("=", 1) for setup in setups)
    show_proxy = any(float(r["proxy"]) > 0 for r in rows)

    def servers(row):
        return [float(c) for c in row["servers"].split(",")]

    print(
        "| clients | setup | calls/s | p50 / p99 | CPU (cores): server processes | "
        + ("nginx | " if show_proxy else "")
        + "wrk | whole machine | other processes | server CPU µs a call | errors |"
    )
    print("| ---: | --- | ---: | ---: | ---: | " + ("---: | " if show_proxy else "") + "---: | ---: | ---: | ---: | ---: |")
    for n in clients:
        for key, name in names.items():
            runs = by.get((n, key))
            if not runs:
                continue
            each = [med(column) for column in zip(*(servers(r) for r in runs))]
            others = med(
                max(float(r["machine"]) - sum(servers(r)) - float(r["proxy"]) - float(r["wrk"]), 0)
                for r in runs
            )
            cost = med(sum(servers(r)) * 1e6 / float(r["rps"]) for r in runs)
            cells = [
                str(n), name, f"{med(float(r['rps']) for r in runs):.0f}",
                f"{duration(med(float(r['p50_us']) for r in runs))} / "
                f"{duration(med(float(r['p99_us']) for r in runs))}",
                " + ".join(f"{c:.2f}" for c in each),
            ]
            if show_proxy:
                cells.append(f"{med(float(r['proxy']) for r in runs):.2f}")
            cells += [
                f"{med(float(r['wrk']) for r in runs):.2f}",
                f"{med(float(r['machine']) for r in runs):.2f}",
                f"{others:.2f}", f"{cost:.0f}", str(sum(int(r["errors"]) for r in runs)),
            ]
            print("| " + " | ".join(cells) + " |")
    print()

    def cost(row):
        return sum(servers(row)) * 1e6 / float(row["rps"])

    def ratio(n, top, bottom, value):
        tops = {r["round"]: value(r) for r in by.get((n, top), [])}
        bottoms = {r["round"]: value(r) for r in by.get((n, bottom), [])}
        values = sorted(tops[k] / bottoms[k] for k in tops if k in bottoms)
        if not values:
            return "—"
        if len(values) == 1:
            return f"{values[0]:.2f}x"
        return f"{med(values):.2f}x ({values[0]:.2f} – {values[-1]:.2f})"

    pairs = [pair.split("/") for pair in ratios]
    print(
        "| clients | "
        + " | ".join(
            f"calls/s, {names[a]} / {names[b]} | server CPU a call, {names[a]} / {names[b]}"
            for a, b in pairs
        )
        + " |"
    )
    print("| ---: | " + " | ".join("---: | ---:" for _ in pairs) + " |")
    for n in clients:
        cells = []
        for a, b in pairs:
            cells.append(ratio(n, a, b, lambda r: float(r["rps"])))
            cells.append(ratio(n, a, b, cost))
        print(f"| {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if sys.argv[1] == "parse":
        parse(*sys.argv[2:])
    else:
        arguments = sys.argv[3:]
        split = arguments.index("--ratios")
        report(sys.argv[2], arguments[:split], arguments[split + 1:])
