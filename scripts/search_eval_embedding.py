"""The static-embedding models found shipped inside registry packages,
against tool_search on the search evaluation (docs/performance.md,
"Relevance on real requests"), nothing downloaded at run time:

- PyPI's tokenlearn-static-model 0.1.1: a Model2Vec-style model of 10,000
  tokens by 64 int8 dimensions, carried in its wheel;
- PyPI's wordllama 0.4.0.post1: WordLlama's l2_supercat model (LLaMA 2's
  32,000 tokens by 256 dimensions, 16 MB of safetensors in its wheel; the
  first 64 and 128 dimensions are the model truncated, as it was trained
  to be). Its loader looks for the tokenizer its wheel carries under
  another directory's name, so it is copied to a cache directory first.

Each ranks every tool's exported text by cosine similarity to each
request, alone and fused with our top 10: by reciprocal rank (k 10 to 60,
our ranking weighted 0.5 to 2), and by score (the cosine times ALPHA plus
1 - 0.1 x our rank for our top 10). The last row is the ceiling of any
fusion of the two top 5s: how often the right tool is in either. Prints
recall@1 and recall@5 for the whole set, the tune half and the held-out
test half.

Usage: python search_eval_embedding.py EXPORT CACHE   (EXPORT the --export
file of the search_eval bench, CACHE a directory to write; run by
scripts/search-eval.sh --embedding)
"""

import json
import shutil
import sys
from pathlib import Path

import numpy as np


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


def tokenlearn():
    from static_model import get_embeddings

    return lambda texts: unit(get_embeddings(texts))


def wordllama(cache, dimensions):
    import wordllama
    from wordllama import WordLlama

    # The wheel carries its tokenizer in wordllama/tokenizers/, where its
    # loader looks in wordllama/tokenizer/, then in the cache's
    # tokenizers/, then on the Hub.
    packaged = Path(wordllama.__file__).parent / "tokenizers"
    (cache / "tokenizers").mkdir(parents=True, exist_ok=True)
    for config in packaged.glob("*.json"):
        shutil.copy(config, cache / "tokenizers" / config.name)
    model = WordLlama.load(cache_dir=cache, disable_download=True, trunc_dim=dimensions)
    return lambda texts: unit(model.embed(texts))


def compare(name, embed, documents, queries):
    names = [document["name"] for document in documents]
    position = {name: i for i, name in enumerate(names)}
    similarity = embed([q["query"] for q in queries]) @ embed([d["text"] for d in documents]).T
    embedded = [[names[j] for j in np.argsort(-scores)[:10]] for scores in similarity]
    ours = [query["top"] for query in queries]
    print(f"\n{name}:\n")
    print("| ranking | recall@1 / @5, all | tune | test (held out) |")
    print("| --- | --- | --- | --- |")
    row("tool_search", queries, ours)
    row(f"{name} alone", queries, embedded)
    for k in (10, 30, 60):
        for weight in (0.5, 1.0, 2.0):
            fused = []
            for mine, theirs in zip(ours, embedded):
                score = {}
                for rank, tool in enumerate(mine):
                    score[tool] = score.get(tool, 0) + weight / (k + rank + 1)
                for rank, tool in enumerate(theirs):
                    score[tool] = score.get(tool, 0) + 1 / (k + rank + 1)
                fused.append(sorted(score, key=lambda tool: -score[tool]))
            row(f"by rank, k {k}, ours weighted {weight}", queries, fused)
    for alpha in (1.0, 2.0, 3.0):
        fused = []
        for scores, mine in zip(similarity, ours):
            scores = scores * alpha
            for rank, tool in enumerate(mine):
                scores[position[tool]] += 1.0 - 0.1 * rank
            fused.append([names[j] for j in np.argsort(-scores)[:10]])
        row(f"by score, alpha {alpha}", queries, fused)
    either = [
        mine[:5] if set(q["labels"]) & set(mine[:5]) else theirs[:5]
        for q, mine, theirs in zip(queries, ours, embedded)
    ]
    row("ceiling of a fusion: the right tool in either top 5 (recall@5 only)", queries, either)


def main(path, cache):
    export = json.load(open(path))
    documents, queries = export["documents"], export["queries"]
    compare("tokenlearn-static-model", tokenlearn(), documents, queries)
    for dimensions in (None, 128, 64):
        label = f"wordllama l2_supercat, {dimensions or 256} dimensions"
        compare(label, wordllama(Path(cache), dimensions), documents, queries)


main(sys.argv[1], sys.argv[2])
