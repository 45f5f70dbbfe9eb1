#!/usr/bin/env python3
"""Checks tool_search's BM25 ranking against a reference implementation.

Reads the export of `cargo bench -p tool-core --bench search_latency --
--export FILE` (every tool's searchable text in the index's order, and our
top 10 for each query), tokenizes the same text as
tool-core/src/toolset/search/tokens.rs does, ranks it with rank_bm25's
BM25Okapi (k1 = 1.2, b = 0.75) and prints how far the two agree: mean
overlap@5 and @10, and how many queries have the same top-1.

rank_bm25's Okapi idf is not ours. Ours is Lucene's,
ln(1 + (N - n + 0.5) / (n + 0.5)), never negative (BM25Similarity.idf,
https://lucene.apache.org/core/10_2_1/core/org/apache/lucene/search/similarities/BM25Similarity.html);
BM25Okapi's is ln((N - n + 0.5) / (n + 0.5)), negative for a word in more
than half the documents, where it is replaced by epsilon (0.25) x the mean
idf of all words (BM25Okapi._calc_idf in rank_bm25 0.2.2,
https://github.com/dorianbrown/rank_bm25/blob/master/rank_bm25.py). The
two differ by a near-constant for rare words (ln(x) vs ln(1 + x)) and
most for common ones, so the ranking can differ where a query mixes a
common word with rare ones. To tell that difference from a bug, the same
reference is also run with Lucene's idf (rank_bm25's term frequencies and
lengths, our idf): that one should agree with ours but for ties and f32
rounding.

Run by scripts/bm25-compare.sh, which installs rank_bm25 in a venv. Not
part of `cargo test`: it documents a measurement (docs/performance.md).

Usage: bm25_reference.py EXPORT.json [--first N]   (N: the first N queries
alone, the 50 written by hand; all of them otherwise, then the first 50)
"""

import json
import math
import sys

import numpy as np
from rank_bm25 import BM25Okapi

# tool-core/src/toolset/search/tokens.rs, STOP_WORDS.
STOP_WORDS = frozenset(
    "a an and are as at be by for from in is it of on or the this to with".split()
)
assert len(STOP_WORDS) == 20


def words(text):
    """tokens.rs's `words`: runs of letters and digits, split again where a
    lowercase letter or a digit meets an uppercase one (or where an
    uppercase run ends before a lowercase letter: getHTTPStatus -> get,
    http, status), lowercased, stop words left out. Python's isalnum,
    isupper, islower and lower agree with Rust's char methods on ASCII,
    which is all the generated tools hold."""
    out = []
    word = []

    def flush():
        if word:
            token = "".join(word)
            word.clear()
            if token not in STOP_WORDS:
                out.append(token)

    previous = None
    for at, c in enumerate(text):
        if not c.isalnum():
            flush()
            previous = None
            continue
        if previous is not None and c.isupper():
            following = text[at + 1] if at + 1 < len(text) else ""
            next_is_lower = following.islower()
            if not previous.isupper() or next_is_lower:
                flush()
        word.append(c.lower())
        previous = c
    flush()
    return out


def check_tokenizer():
    """The cases of tokens.rs's own unit test."""
    cases = {
        "read_file": ["read", "file"],
        "readFile": ["read", "file"],
        "files.read-all": ["files", "read", "all"],
        "getHTTPStatus": ["get", "http", "status"],
        "v2Api": ["v2", "api"],
        "Écrire un Fichier": ["écrire", "un", "fichier"],
        " -- ": [],
        "Read a file from the disk": ["read", "file", "disk"],
    }
    for text, expected in cases.items():
        assert words(text) == expected, (text, words(text), expected)


def query_terms(query):
    """Each word once, in order, as index.rs's `bm25` takes a query
    (BM25Okapi.get_scores would count a repeated word twice)."""
    seen = []
    for word in words(query):
        if word not in seen:
            seen.append(word)
    return seen


def ranked(scores, limit):
    """Documents scoring above zero, best first, ties in document order: as
    index.rs orders them."""
    positive = np.flatnonzero(scores > 0)
    order = sorted(positive, key=lambda doc: (-scores[doc], doc))
    return [int(doc) for doc in order[:limit]]


class LuceneIdf:
    """BM25 with Lucene's idf over BM25Okapi's own counts."""

    def __init__(self, okapi, k1, b):
        self.okapi = okapi
        self.k1 = k1
        self.b = b
        self.doc_len = np.array(okapi.doc_len, dtype=float)
        self.cache = {}

    def frequencies(self, term):
        if term not in self.cache:
            self.cache[term] = np.array(
                [doc.get(term, 0) for doc in self.okapi.doc_freqs], dtype=float
            )
        return self.cache[term]

    def idf(self, term):
        """ln(1 + (N - n + 0.5) / (n + 0.5)), as index.rs computes it."""
        n_docs = self.okapi.corpus_size
        with_term = np.count_nonzero(self.frequencies(term))
        return math.log(1 + (n_docs - with_term + 0.5) / (with_term + 0.5))

    def get_scores(self, terms):
        norm = self.k1 * (1 - self.b + self.b * self.doc_len / self.okapi.avgdl)
        score = np.zeros(self.okapi.corpus_size)
        for term in terms:
            tf = self.frequencies(term)
            if not tf.any():
                continue
            score += self.idf(term) * tf * (self.k1 + 1) / (tf + norm)
        return score


def overlap(ours, theirs, k):
    """Shared results in both top-k lists, over the longer list's length
    (k when both have k)."""
    a, b = ours[:k], theirs[:k]
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else len(set(a) & set(b)) / longest


def tie_aware_overlap(ours, theirs, scores, k):
    """The same, counting one of ours as agreeing when the reference scores
    it as high as its own k-th result (a tie at the cut, broken the other
    way)."""
    a, b = ours[:k], theirs[:k]
    if not b:
        return 1.0 if not a else 0.0
    cut = scores[b[-1]]
    agreeing = sum(1 for doc in a if doc in b or scores[doc] >= cut * (1 - 1e-6))
    return min(agreeing, len(b)) / max(len(a), len(b))


def compare(label, queries, names, position, reference):
    """Prints the agreement of our top 10 with `reference`'s."""
    at5, at10, tie5, tie10, top1 = [], [], [], [], 0
    first_differ = []
    for entry in queries:
        terms = query_terms(entry["query"])
        ours = [position[name] for name in entry["top"]]
        scores = reference.get_scores(terms)
        theirs = ranked(scores, 10)
        at5.append(overlap(ours, theirs, 5))
        at10.append(overlap(ours, theirs, 10))
        tie5.append(tie_aware_overlap(ours, theirs, scores, 5))
        tie10.append(tie_aware_overlap(ours, theirs, scores, 10))
        if ours[:1] == theirs[:1]:
            top1 += 1
        else:
            first_differ.append((entry["query"], ours[:1], theirs[:1], scores))
    n = len(queries)
    print(
        f"| {label} | {n} | {np.mean(at5):.1%} | {np.mean(at10):.1%} | "
        f"{top1}/{n} | {np.mean(tie5):.1%} | {np.mean(tie10):.1%} |"
    )
    return first_differ


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: bm25_reference.py EXPORT.json [--first N]")
    check_tokenizer()
    with open(sys.argv[1], encoding="utf-8") as f:
        export = json.load(f)
    first = None
    if "--first" in sys.argv:
        first = int(sys.argv[sys.argv.index("--first") + 1])
    k1, b = export["k1"], export["b"]
    documents = export["documents"]
    names = [doc["name"] for doc in documents]
    position = {name: at for at, name in enumerate(names)}
    corpus = [words(doc["text"]) for doc in documents]
    okapi = BM25Okapi(corpus, k1=k1, b=b)
    lucene = LuceneIdf(okapi, k1, b)
    n_docs = okapi.corpus_size
    common = sorted(
        word
        for word in okapi.idf
        if np.count_nonzero(lucene.frequencies(word)) > n_docs / 2
    )
    print(
        f"{n_docs} tools, {len(okapi.idf)} distinct words, mean length "
        f"{okapi.avgdl:.1f} words; in more than half the tools: {', '.join(common)} "
        f"(BM25Okapi floors their idf at {okapi.epsilon} x mean idf = "
        f"{okapi.epsilon * okapi.average_idf:.3f})"
    )
    print()
    print(
        "| reference | queries | overlap@5 | overlap@10 | same top-1 "
        "| overlap@5, ties at the cut | overlap@10, ties at the cut |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    sets = [(f"first {first}", export["queries"][:first])] if first else [
        (f"all {len(export['queries'])}", export["queries"]),
        ("the 50 written by hand", export["queries"][:50]),
    ]
    differ = []
    for label, queries in sets:
        differ += compare(f"rank_bm25 BM25Okapi, {label}", queries, names, position, okapi)
        compare(f"BM25Okapi's counts, Lucene idf, {label}", queries, names, position, lucene)
    if differ:
        with_common = sum(1 for query, *_ in differ if set(query_terms(query)) & set(common))
        print(
            f"\nOf the {len(differ)} top-1s that differ from BM25Okapi's, {with_common} are of "
            f"queries with a word in more than half the tools ({', '.join(common)}), whose idf "
            "the two formulas weigh most differently."
        )
        print("The first 5, scored by BM25Okapi / with Lucene's idf:")
        for query, ours, theirs, scores in differ[:5]:
            lucene_scores = lucene.get_scores(query_terms(query))
            shown = lambda doc: f"{names[doc]} ({scores[doc]:.3f} / {lucene_scores[doc]:.3f})"
            ours_text = shown(ours[0]) if ours else "nothing"
            theirs_text = shown(theirs[0]) if theirs else "nothing"
            idfs = ", ".join(
                f"{term} {okapi.idf[term]:.2f} / {lucene.idf(term):.2f}"
                if term in okapi.idf
                else f"{term} (in no tool)"
                for term in query_terms(query)
            )
            print(f"  {query!r}: ours {ours_text}, BM25Okapi {theirs_text}; idf {idfs}")


if __name__ == "__main__":
    main()
