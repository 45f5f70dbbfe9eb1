#!/usr/bin/env python3
"""rank_bm25 on the search evaluation set, beside tool_search's own ranking.

Reads the export of `cargo bench -p tool-core --features schema-check
--bench search_eval -- --export FILE`: every tool's searchable text (name,
description, each parameter's name and description) and tool_search's top
10 for each request of tool-core/benches/data/search_eval. Ranks the same
text with rank_bm25's BM25Okapi (0.2.2, its defaults k1 = 1.5, b = 0.75,
as a user would call it), tokenized as tool-core's search tokenized it
before it learnt to weigh fields and stem (bm25_reference.py's `words`:
runs of letters and digits, split at case changes, lowercased, 20 stop
words left out), and prints recall@1, recall@5 and MRR@10 of both, for the
whole set and for each half (tune: what tool_search was tuned on; test:
held out).

A request is found at the first rank holding one of its labels; only
tools that score above zero are ranked (ties in the catalogue's order), as
tool_search returns only tools that match.

Run by scripts/search-eval.sh, which installs rank_bm25 in a venv. A
measurement for docs/performance.md, not a test.

Usage: search_eval_reference.py EXPORT.json
"""

import json
import sys
from pathlib import Path

from rank_bm25 import BM25Okapi

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bm25_reference import check_tokenizer, ranked, words  # noqa: E402

HALVES = [("all", None), ("tune half", "tune"), ("test half (held out)", "test")]


def metrics(ranks):
    """recall@1, recall@5, MRR@10 of 1-based ranks (None: not in the top 10)."""
    n = max(len(ranks), 1)
    at1 = sum(1 for rank in ranks if rank == 1) / n
    at5 = sum(1 for rank in ranks if rank is not None and rank <= 5) / n
    mrr = sum(1 / rank for rank in ranks if rank is not None) / n
    return at1, at5, mrr


def first_rank(top, labels):
    for at, name in enumerate(top[:10]):
        if name in labels:
            return at + 1
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: search_eval_reference.py EXPORT.json")
    check_tokenizer()
    with open(sys.argv[1], encoding="utf-8") as f:
        export = json.load(f)
    documents = export["documents"]
    names = [doc["name"] for doc in documents]
    okapi = BM25Okapi([words(doc["text"]) for doc in documents])

    rows = {"tool_search": [], "rank_bm25 BM25Okapi": []}
    for entry in export["queries"]:
        labels = set(entry["labels"])
        theirs = [names[doc] for doc in ranked(okapi.get_scores(words(entry["query"])), 10)]
        rows["tool_search"].append((entry["half"], first_rank(entry["top"], labels)))
        rows["rank_bm25 BM25Okapi"].append((entry["half"], first_rank(theirs, labels)))

    print(
        f"{len(documents)} tools, {len(export['queries'])} requests; rank_bm25 "
        f"{okapi.k1=}, {okapi.b=}, mean length {okapi.avgdl:.1f} words"
    )
    print()
    print("| ranking | half | requests | recall@1 | recall@5 | MRR@10 |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    table = {}
    for label, half in HALVES:
        for ranking, outcomes in rows.items():
            ranks = [rank for which, rank in outcomes if half is None or which == half]
            table[(ranking, label)] = metrics(ranks)
            at1, at5, mrr = table[(ranking, label)]
            print(f"| {ranking} | {label} | {len(ranks)} | {at1:.3f} | {at5:.3f} | {mrr:.3f} |")
    print()
    print("tool_search minus rank_bm25 (recall@1, recall@5, MRR@10):")
    for label, _ in HALVES:
        ours, theirs = table[("tool_search", label)], table[("rank_bm25 BM25Okapi", label)]
        print(
            f"  {label}: {ours[0] - theirs[0]:+.3f}, {ours[1] - theirs[1]:+.3f}, "
            f"{ours[2] - theirs[2]:+.3f}"
        )


if __name__ == "__main__":
    main()
