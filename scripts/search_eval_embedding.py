"""The one static-embedding model found shipped inside a registry package,
against tool_search on the search evaluation (docs/performance.md,
"Relevance on real requests"): PyPI's tokenlearn-static-model 0.1.1, a
Model2Vec-style model of 10,000 tokens by 64 int8 dimensions carried in
its wheel (nothing downloaded at run time). Ranks every tool's exported
text by cosine similarity to each request, alone and fused with our top
10 by reciprocal rank (k 10 to 60, our ranking weighted 0.5 to 2), and
prints recall@1 and recall@5 for the whole set, the tune half and the
held-out test half.

Usage: python search_eval_embedding.py EXPORT   (the --export file of the
search_eval bench; scripts/search-eval.sh --embedding runs it)
"""

import json
import sys

import numpy as np
from static_model import get_embeddings


def unit(vectors):
    vectors = np.array(vectors, dtype=np.float32)
    return vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)


def recall(queries, rankings, half=None):
    at1 = at5 = count = 0
    for query, top in zip(queries, rankings):
        if half and query["half"] != half:
            continue
        count += 1
        labels = set(query["labels"])
        position = next((i for i, name in enumerate(top) if name in labels), None)
        at1 += position is not None and position < 1
        at5 += position is not None and position < 5
    return f"{at1 / count:.3f} / {at5 / count:.3f}"


def row(what, queries, rankings):
    cells = [recall(queries, rankings, half) for half in (None, "tune", "test")]
    print(f"| {what} | " + " | ".join(cells) + " |")


def main(path):
    export = json.load(open(path))
    documents, queries = export["documents"], export["queries"]
    names = [document["name"] for document in documents]
    similarity = unit(get_embeddings([q["query"] for q in queries])) @ unit(
        get_embeddings([d["text"] for d in documents])
    ).T
    embedded = [[names[j] for j in np.argsort(-scores)[:10]] for scores in similarity]
    ours = [query["top"] for query in queries]
    print("| ranking | recall@1 / @5, all | tune | test (held out) |")
    print("| --- | --- | --- | --- |")
    row("tool_search", queries, ours)
    row("tokenlearn-static-model alone", queries, embedded)
    for k in (10, 30, 60):
        for weight in (0.5, 1.0, 2.0):
            fused = []
            for mine, theirs in zip(ours, embedded):
                score = {}
                for rank, name in enumerate(mine):
                    score[name] = score.get(name, 0) + weight / (k + rank + 1)
                for rank, name in enumerate(theirs):
                    score[name] = score.get(name, 0) + 1 / (k + rank + 1)
                fused.append(sorted(score, key=lambda name: -score[name]))
            row(f"fused, k {k}, ours weighted {weight}", queries, fused)


main(sys.argv[1])
