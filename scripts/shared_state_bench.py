"""The cost of the shared state on Redis (issue 36), measured on loopback
against `tool-examples mcp --http` processes that scripts/shared-state-bench.sh
starts; this file is the client and the arithmetic.

1. latency: `tools/call echo {"value":"x"}` in a legacy session that stays
   in the process that opened it, for each server given with --config
   NAME=URL (the first is the baseline). One keep-alive connection and one
   session per server. Rounds interleave the servers in blocks of calls,
   the order rotating from block to block; a round's p50 and p90 are taken
   per server, and the summary gives medians over the rounds of those, and
   of the per-round differences and ratios against the baseline. With
   --shared-redis-port, the Redis commands one call costs on each server
   but the first (INFO commandstats around 200 calls).
2. restore: a fresh session opened on process A, then its first call on
   process B (which restores it from the store, replaying `initialize`),
   against a fresh session's first call on A itself; the second call on B
   (the session now local there) too. The three kinds alternate.
3. memory: on a server with a Redis of its own, sessions opened (no calls)
   and Redis's used_memory before and after, then the keys themselves
   (MEMORY USAGE of a sample of each kind). With --shared-redis-port, the
   keys parts 1 and 2 left in their store are described the same way.

Only the standard library (http.client); redis-cli for the store. Any
call that fails ends the run with a non-zero status; no timing threshold
does. Progress goes to stderr, the summary (Markdown) to stdout, and with
--json FILE every figure to FILE.
"""

import argparse
import gc
import http.client
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

# The interop suite's legacy client messages (interop/python/resume.py).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "interop" / "python"))
from resume import initialize_message  # noqa: E402

VERSION = "2025-11-25"
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
ECHO = {"name": "echo", "arguments": {"value": "x"}}


class CallFailed(Exception):
    pass


def progress(*parts):
    print(*parts, file=sys.stderr, flush=True)


class Server:
    """One server, one keep-alive HTTP/1.1 connection to it, reused for
    every request. A connection the server closed between requests is
    opened again once (counted in `reconnects`); a second failure fails."""

    def __init__(self, name, url):
        parts = urlsplit(url)
        self.name = name
        self.host, self.port, self.path = parts.hostname, parts.port, parts.path or "/mcp"
        self.connection = None
        self.reconnects = 0
        self.next_id = 1

    def _connect(self):
        if self.connection is not None:
            self.connection.close()
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def post(self, body: bytes, headers):
        """(status, headers, body bytes, seconds from sending to the end of
        the answer). Event streams are read to their end."""
        for attempt in (0, 1):
            if self.connection is None:
                self._connect()
            try:
                start = time.perf_counter()
                self.connection.request("POST", self.path, body=body, headers=headers)
                answer = self.connection.getresponse()
                data = answer.read()
                took = time.perf_counter() - start
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
                    http.client.CannotSendRequest, http.client.ResponseNotReady) as error:
                if attempt == 1:
                    raise CallFailed(f"{self.name}: the connection failed twice: {error!r}")
                self.reconnects += 1
                self.connection = None
                continue
            if answer.getheader("connection", "").lower() == "close":
                self.connection = None
            return answer.status, answer, data, took
        raise AssertionError("unreachable")

    def open_session(self, client_name="shared-state-bench"):
        """A legacy session (initialize, then notifications/initialized):
        the headers its requests carry."""
        initialize = initialize_message(client_name)
        status, answer, data, _ = self.post(json.dumps(initialize).encode(), HEADERS)
        if status != 200:
            raise CallFailed(f"{self.name}: initialize answered {status}: {data[:300]!r}")
        session = answer.getheader("mcp-session-id")
        if not session:
            raise CallFailed(f"{self.name}: initialize gave no Mcp-Session-Id: {data[:300]!r}")
        messages = sse_messages(answer, data)
        if not any(m.get("id") == 0 and "result" in m for m in messages):
            raise CallFailed(f"{self.name}: initialize has no result: {data[:300]!r}")
        headers = {**HEADERS, "Mcp-Session-Id": session, "MCP-Protocol-Version": VERSION}
        done = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()
        status, _, data, _ = self.post(done, headers)
        if status != 202:
            raise CallFailed(f"{self.name}: notifications/initialized answered {status}: {data[:300]!r}")
        return headers

    def echo(self, headers, via=None):
        """One `tools/call echo`, checked: the seconds it took. `via` sends
        it to another server (a session opened here, called there)."""
        target = via or self
        request_id = self.next_id
        self.next_id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                           "params": ECHO}).encode()
        status, answer, data, took = target.post(body, headers)
        if status != 200:
            raise CallFailed(f"{target.name}: tools/call answered {status}: {data[:300]!r}")
        messages = sse_messages(answer, data)
        result = next((m for m in messages if m.get("id") == request_id), None)
        if result is None or "result" not in result or result["result"].get("isError") is not False:
            raise CallFailed(f"{target.name}: tools/call gave no good result: {data[:300]!r}")
        content = result["result"].get("content") or [{}]
        if content[0].get("text") != "x":
            raise CallFailed(f"{target.name}: echo answered {content!r}")
        return took


def sse_messages(answer, data: bytes):
    """The JSON-RPC messages of an answer: an event stream's data, or a
    plain JSON body."""
    kind = answer.getheader("content-type", "")
    text = data.decode()
    if kind.startswith("application/json"):
        return [json.loads(text)]
    if not kind.startswith("text/event-stream"):
        raise CallFailed(f"unexpected Content-Type {kind!r}: {text[:300]!r}")
    messages, lines = [], []
    for line in text.split("\n") + [""]:
        line = line.rstrip("\r")
        if line == "":
            payload = "\n".join(lines).strip()
            if payload:
                messages.append(json.loads(payload))
            lines = []
        elif line.startswith("data:"):
            lines.append(line[5:].lstrip())
    return messages


def quantile(values, q):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def ms(seconds):
    return seconds * 1000.0


# -- 1. latency in a local session -------------------------------------------

def latency(configs, rounds, calls, block, warmup):
    servers = [Server(name, url) for name, url in configs]
    sessions = {server.name: server.open_session() for server in servers}
    for server in servers:
        for _ in range(warmup):
            server.echo(sessions[server.name])
    per_round = []
    blocks = max(1, calls // block)
    for number in range(rounds):
        samples = {server.name: [] for server in servers}
        gc.collect()
        gc.disable()
        try:
            for index in range(blocks):
                shift = (number + index) % len(servers)
                for server in servers[shift:] + servers[:shift]:
                    headers = sessions[server.name]
                    for _ in range(block):
                        samples[server.name].append(server.echo(headers))
        finally:
            gc.enable()
        figures = {name: {"p50": ms(quantile(values, 0.5)), "p90": ms(quantile(values, 0.9)),
                          "n": len(values)} for name, values in samples.items()}
        per_round.append(figures)
        progress(f"latency round {number + 1}/{rounds}: " + ", ".join(
            f"{name} p50 {f['p50']:.3f} p90 {f['p90']:.3f} ms" for name, f in figures.items()))
    reconnects = {server.name: server.reconnects for server in servers}
    return per_round, reconnects


def commandstats(port):
    """Calls per command so far (INFO commandstats; commands run by a Lua
    script are counted too, under their own names)."""
    counts = {}
    for line in redis_cli(port, "INFO", "commandstats").splitlines():
        if line.startswith("cmdstat_"):
            name, _, fields = line[len("cmdstat_"):].partition(":")
            for field in fields.split(","):
                if field.startswith("calls="):
                    counts[name] = int(field[len("calls="):])
    return counts


def commands_per_call(configs, port, calls):
    """The Redis commands one echo call in a local session costs, on each
    server: INFO commandstats before and after `calls` calls, no other
    client of the store busy meanwhile."""
    per_config = {}
    for name, url in configs:
        server = Server(name, url)
        headers = server.open_session()
        server.echo(headers)
        before = commandstats(port)
        for _ in range(calls):
            server.echo(headers)
        after = commandstats(port)
        # The two INFO calls of the measurement itself.
        after["info"] = after.get("info", 0) - 1
        delta = {command: (after[command] - before.get(command, 0)) / calls for command in after}
        per_config[name] = {command: round(n, 2) for command, n in sorted(delta.items(), key=lambda kv: -kv[1])
                            if n > 0}
        progress(f"redis commands per call, {name}: {per_config[name]}")
    return per_config


def baseline_of(name, names):
    """What a configuration is compared with: `memory+X` for `STORE+X`
    (the same limits counted in memory) when it is measured, else the first."""
    _, plus, rest = name.partition("+")
    twin = f"{names[0]}+{rest}" if plus else None
    return twin if twin in names and twin != name else names[0]


def latency_summary(per_round, names):
    rows = []
    for name in names:
        base = baseline_of(name, names)
        p50s = [r[name]["p50"] for r in per_round]
        p90s = [r[name]["p90"] for r in per_round]
        row = {"config": name, "p50": statistics.median(p50s), "p90": statistics.median(p90s),
               "p50_min": min(p50s), "p50_max": max(p50s), "calls_per_round": per_round[0][name]["n"],
               "base": base}
        if name != base:
            d50 = [r[name]["p50"] - r[base]["p50"] for r in per_round]
            d90 = [r[name]["p90"] - r[base]["p90"] for r in per_round]
            ratio = [r[name]["p50"] / r[base]["p50"] for r in per_round]
            row.update(d50=statistics.median(d50), d50_min=min(d50), d50_max=max(d50),
                       d90=statistics.median(d90), ratio=statistics.median(ratio))
        rows.append(row)
    return rows


# -- 2. the first call through a restored session ----------------------------

def restore(url_a, url_b, sessions, rounds, warmup):
    a, b = Server("A", url_a), Server("B", url_b)
    for _ in range(warmup):
        headers = a.open_session()
        a.echo(headers)
        headers = a.open_session()
        a.echo(headers, via=b)
    kinds = ["local first call (A)", "restored first call (B)", "second call on B"]
    per_round = []
    per_kind_all = {kind: [] for kind in kinds}
    each = max(1, sessions // rounds)
    for number in range(rounds):
        samples = {kind: [] for kind in kinds}
        gc.collect()
        gc.disable()
        try:
            for index in range(each):
                steps = ["local", "restored"] if (number + index) % 2 == 0 else ["restored", "local"]
                for step in steps:
                    headers = a.open_session()
                    if step == "local":
                        samples[kinds[0]].append(a.echo(headers))
                    else:
                        samples[kinds[1]].append(a.echo(headers, via=b))
                        samples[kinds[2]].append(a.echo(headers, via=b))
        finally:
            gc.enable()
        figures = {kind: ms(quantile(values, 0.5)) for kind, values in samples.items()}
        per_round.append(figures)
        for kind, values in samples.items():
            per_kind_all[kind].extend(values)
        progress(f"restore round {number + 1}/{rounds}: " + ", ".join(
            f"{kind} p50 {p50:.3f} ms" for kind, p50 in figures.items()))
    rows = []
    for kind in kinds:
        p50s = [r[kind] for r in per_round]
        row = {"kind": kind, "p50": statistics.median(p50s),
               "pooled_p50": ms(quantile(per_kind_all[kind], 0.5)),
               "pooled_p90": ms(quantile(per_kind_all[kind], 0.9)),
               "n": len(per_kind_all[kind])}
        if kind != kinds[0]:
            diffs = [r[kind] - r[kinds[0]] for r in per_round]
            row.update(d50=statistics.median(diffs), d50_min=min(diffs), d50_max=max(diffs),
                       ratio=statistics.median([r[kind] / r[kinds[0]] for r in per_round]))
        rows.append(row)
    return rows, per_round, {"A": a.reconnects, "B": b.reconnects}


# -- 3. Redis memory per idle session ----------------------------------------

def redis_cli(port, *args):
    done = subprocess.run(["redis-cli", "-p", str(port), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise CallFailed(f"redis-cli {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def used_memory(port):
    for line in redis_cli(port, "INFO", "memory").splitlines():
        if line.startswith("used_memory:"):
            return int(line.split(":", 1)[1])
    raise CallFailed("INFO memory has no used_memory")


def scan(port, pattern):
    return [key for key in redis_cli(port, "--scan", "--pattern", pattern).split("\n") if key]


def memory_usage(port, keys):
    """MEMORY USAGE of each key (SAMPLES 0: every element counted)."""
    sizes = []
    for key in keys:
        answer = redis_cli(port, "MEMORY", "USAGE", key, "SAMPLES", "0").strip()
        if answer and answer != "(nil)" and answer.isdigit():
            sizes.append(int(answer))
    return sizes


def describe_keys(port, keys, sample):
    """Keys grouped by kind (`PREFIX:KIND:...`): how many, the average
    MEMORY USAGE of a sample, type, encoding, the TTL left and what one
    holds."""
    kinds = {}
    for key in keys:
        parts = key.split(":")
        prefix, kind = parts[0], (parts[1] if len(parts) > 1 else "")
        if kind == "quota" and len(parts) > 2:
            kind = f"quota:{parts[2]}"
        kinds.setdefault((prefix, kind), []).append(key)
    rng = random.Random(36)
    per_kind = []
    for (prefix, kind), members in sorted(kinds.items()):
        chosen = rng.sample(members, min(sample, len(members)))
        sizes = memory_usage(port, chosen)
        first = chosen[0]
        detail = {
            "prefix": prefix, "kind": kind, "count": len(members), "sampled": len(sizes),
            "avg_usage": statistics.mean(sizes) if sizes else float("nan"),
            "type": redis_cli(port, "TYPE", first).strip(),
            "encoding": redis_cli(port, "OBJECT", "ENCODING", first).strip(),
            "pttl_ms": int(redis_cli(port, "PTTL", first).strip() or -2),
            "example": first,
        }
        if detail["type"] == "hash":
            fields = redis_cli(port, "HKEYS", first).split()
            detail["fields"] = {field: int(redis_cli(port, "HSTRLEN", first, field).strip() or 0)
                                for field in fields}
        if detail["type"] == "stream":
            detail["entries"] = int(redis_cli(port, "XLEN", first).strip() or 0)
        if detail["type"] == "zset":
            detail["entries"] = int(redis_cli(port, "ZCARD", first).strip() or 0)
        per_kind.append(detail)
    return per_kind


def leftovers(port, sample):
    """Every key in the latency and restore parts' store once they are
    done, by kind, and its used_memory."""
    keys = scan(port, "*")
    return {"used_memory": used_memory(port), "keys": len(keys), "kinds": describe_keys(port, keys, sample)}


def key_rows(kinds, per=None):
    rows = ["| key kind | count | " + ("per session | " if per else "")
            + "avg MEMORY USAGE (sample) | type / encoding | TTL left | contents |",
            "|---|---:|" + ("---:|" if per else "") + "---:|---|---:|---|"]
    for kind in kinds:
        contents = ""
        if "fields" in kind:
            contents = ", ".join(f"{f}: {n} B" for f, n in kind["fields"].items())
        if "entries" in kind:
            contents = f"{kind['entries']} entries"
        ttl = f"{kind['pttl_ms'] / 1000:.0f} s" if kind["pttl_ms"] >= 0 else "none"
        rows.append(f"| `{kind['prefix']}:{kind['kind']}:*` | {kind['count']} | "
                    + (f"{kind['count'] / per:.2f} | " if per else "")
                    + f"{kind['avg_usage']:.0f} B ({kind['sampled']}) | {kind['type']} / {kind['encoding']} | "
                    f"{ttl} | {contents} |")
    if not kinds:
        rows.append("| (none) | 0 |" + (" |" if per else "") + " | | | |")
    return rows


def memory(url, port, prefix, sessions, warmup, sample):
    server = Server("idle", url)
    for _ in range(warmup):
        server.open_session()
    # Settle: a session's keys are written before its answer, but let any
    # write still on its way land before the baseline.
    time.sleep(0.2)
    keys_before = len(scan(port, f"{prefix}:*"))
    before = used_memory(port)
    start = time.perf_counter()
    for _ in range(sessions):
        server.open_session()
    opened_in = time.perf_counter() - start
    after = used_memory(port)
    keys_after = scan(port, f"{prefix}:*")
    progress(f"memory: {sessions} sessions opened in {opened_in:.2f} s; used_memory "
             f"{before} -> {after} bytes; keys {keys_before} -> {len(keys_after)}")
    per_kind = describe_keys(port, keys_after, sample)
    return {
        "sessions": sessions, "used_memory_before": before, "used_memory_after": after,
        "delta_per_session": (after - before) / sessions,
        "keys_before": keys_before, "keys_after": len(keys_after), "kinds": per_kind,
        "reconnects": server.reconnects,
    }


# -- the summary -------------------------------------------------------------

def summary(args, latency_rows, restore_rows, mem, commands=None, left=None):
    out = []
    add = out.append
    add(f"## Shared state on Redis: loopback, {args.label}")
    add("")
    if latency_rows is not None:
        base = latency_rows[0]["config"]
        add(f"### 1. tools/call echo in a local session ({args.rounds} rounds x "
            f"{latency_rows[0]['calls_per_round']} calls per config, interleaved in blocks of {args.block})")
        add("")
        add("| config | compared with | p50 ms (median of rounds) | p90 ms | p50 range over rounds | p50 added ms [range] | p90 added ms | p50 ratio |")
        add("|---|---|---:|---:|---:|---:|---:|---:|")
        for row in latency_rows:
            if row["config"] == row["base"]:
                add(f"| {row['config']} | - | {row['p50']:.3f} | {row['p90']:.3f} | "
                    f"{row['p50_min']:.3f} - {row['p50_max']:.3f} | - | - | 1.00 |")
            else:
                add(f"| {row['config']} | {row['base']} | {row['p50']:.3f} | {row['p90']:.3f} | "
                    f"{row['p50_min']:.3f} - {row['p50_max']:.3f} | **{row['d50']:+.3f}** "
                    f"[{row['d50_min']:+.3f}, {row['d50_max']:+.3f}] | {row['d90']:+.3f} | {row['ratio']:.2f}x |")
        add("")
        add("Goal (issue 36): under 0.3 ms p50 added on loopback by the store. "
            + "; ".join(f"{row['config']} against {row['base']}: {row['d50']:+.3f} ms "
                        f"({'within' if row['d50'] < 0.3 else 'NOT within'})"
                        for row in latency_rows if row["config"] != row["base"]) + ".")
        add("")
    if commands:
        add("Redis commands per echo call (INFO commandstats; a script's own commands counted too):")
        add("")
        for name, counts in commands.items():
            listed = ", ".join(f"{command} {n:g}" for command, n in counts.items()) or "none"
            add(f"- {name}: {listed}")
        add("")
    if restore_rows is not None:
        local = restore_rows[0]
        add(f"### 2. First call of a fresh session: local vs restored from Redis "
            f"({local['n']} sessions each, {args.rounds} rounds)")
        add("")
        add("| call | p50 ms (median of rounds) | pooled p50 | pooled p90 | p50 - local ms [range] | ratio |")
        add("|---|---:|---:|---:|---:|---:|")
        for row in restore_rows:
            if "d50" in row:
                add(f"| {row['kind']} | {row['p50']:.3f} | {row['pooled_p50']:.3f} | {row['pooled_p90']:.3f} | "
                    f"**{row['d50']:+.3f}** [{row['d50_min']:+.3f}, {row['d50_max']:+.3f}] | {row['ratio']:.2f}x |")
            else:
                add(f"| {row['kind']} | {row['p50']:.3f} | {row['pooled_p50']:.3f} | {row['pooled_p90']:.3f} | - | 1.00x |")
        add("")
    if mem is not None:
        add(f"### 3. Redis memory per idle session ({mem['sessions']} sessions opened, no calls)")
        add("")
        delta = mem["delta_per_session"]
        add(f"used_memory delta / {mem['sessions']}: **{delta:.0f} bytes** ({delta / 1024:.2f} KiB; "
            f"goal under 2 KiB: {'within' if delta < 2048 else 'NOT within'}); keys under the prefix "
            f"{mem['keys_before']} -> {mem['keys_after']}.")
        add("")
        for row in key_rows(mem["kinds"], per=mem["sessions"] + args.memory_warmup):
            add(row)
        add("")
        kinds = {kind["kind"] for kind in mem["kinds"]}
        if "events" not in kinds:
            add("No `events:*` stream exists for an idle session: the initialize answer is not "
                "written to the event store (its SSE event id is a bare `0`); only the session hash is.")
            add("")
    if left is not None:
        add(f"### Keys left in the store of parts 1 and 2 when they ended "
            f"({left['keys']} keys, used_memory {left['used_memory'] / 2**20:.1f} MiB)")
        add("")
        add("Prefixes: `bench` (redis), `benchlimits` (redis+limits), `restore` (A and B). "
            "Each tools/call's own SSE stream is an `events:<uuid>` Redis stream, kept after its last event.")
        add("")
        for row in key_rows(left["kinds"]):
            add(row)
        add("")
    add("Medians of per-round figures; differences and ratios are per round, then their median. "
        "Client: Python http.client, one keep-alive connection per server (its own overhead is in "
        "every figure alike).")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", action="append", default=[], metavar="NAME=URL",
                        help="a server for the latency part; the first is the baseline")
    parser.add_argument("--restore", nargs=2, metavar=("URL_A", "URL_B"))
    parser.add_argument("--idle", metavar="URL", help="the server of the memory part")
    parser.add_argument("--idle-redis-port", type=int)
    parser.add_argument("--idle-prefix", default="idle")
    parser.add_argument("--shared-redis-port", type=int,
                        help="the store of the latency part's servers: Redis commands per call counted there")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=2000, help="calls per config per round")
    parser.add_argument("--block", type=int, default=100, help="calls in a row to one server")
    parser.add_argument("--warmup", type=int, default=300, help="untimed calls per config first")
    parser.add_argument("--sessions", type=int, default=100, help="fresh sessions for the restore part")
    parser.add_argument("--idle-sessions", type=int, default=1000)
    parser.add_argument("--memory-warmup", type=int, default=10)
    parser.add_argument("--sample", type=int, default=20, help="keys of each kind given MEMORY USAGE")
    parser.add_argument("--label", default="")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()

    configs = []
    for item in args.config:
        name, _, url = item.partition("=")
        if not url:
            parser.error(f"--config wants NAME=URL, not {item!r}")
        configs.append((name, url))

    figures = {}
    latency_rows = restore_rows = mem = commands = left = None
    try:
        if configs:
            per_round, reconnects = latency(configs, args.rounds, args.calls, args.block, args.warmup)
            latency_rows = latency_summary(per_round, [name for name, _ in configs])
            figures["latency"] = {"rows": latency_rows, "per_round": per_round, "reconnects": reconnects}
            if args.shared_redis_port:
                commands = commands_per_call(configs[1:], args.shared_redis_port, 200)
                figures["commands_per_call"] = commands
        if args.restore:
            restore_rows, per_round, reconnects = restore(*args.restore, args.sessions, args.rounds, warmup=5)
            figures["restore"] = {"rows": restore_rows, "per_round": per_round, "reconnects": reconnects}
        if args.shared_redis_port:
            left = leftovers(args.shared_redis_port, args.sample)
            figures["leftovers"] = left
        if args.idle:
            if not args.idle_redis_port:
                parser.error("--idle wants --idle-redis-port")
            mem = memory(args.idle, args.idle_redis_port, args.idle_prefix, args.idle_sessions,
                         args.memory_warmup, args.sample)
            figures["memory"] = mem
    except CallFailed as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    except (OSError, http.client.HTTPException) as error:
        print(f"FAILED: {error!r}", file=sys.stderr)
        return 1
    reconnected = {part: f["reconnects"] for part, f in figures.items() if "reconnects" in f and any(
        (f["reconnects"].values() if isinstance(f["reconnects"], dict) else [f["reconnects"]]))}
    if reconnected:
        progress(f"note: connections the server closed and that were opened again: {reconnected}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)
    print(summary(args, latency_rows, restore_rows, mem, commands, left))
    return 0


if __name__ == "__main__":
    sys.exit(main())
