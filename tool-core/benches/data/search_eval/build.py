#!/usr/bin/env python3
"""Builds the search evaluation set (tools.jsonl, queries.jsonl) from the
Berkeley Function Calling Leaderboard's data: see README.md beside this
file for what is taken and why.

Usage: build.py GORILLA_GIT_DIR [COMMIT]

GORILLA_GIT_DIR is a clone (or bare git directory) of
github.com/ShishirPatil/gorilla; COMMIT defaults to the one the committed
set was built from. Only `git show` is run on it: nothing of that
repository is executed. Standard library only.
"""

import hashlib
import json
import subprocess
import sys
from pathlib import Path

COMMIT = "6ea57973c7a6097fd7c5915698c54c17c5b1b6c8"
DATA = "berkeley-function-call-leaderboard/bfcl_eval/data"
# The categories with one user request and one function to find in it:
# simple (one function given), multiple (2 to 4 given, one right), and
# their "live" versions (requests and functions contributed by users).
CATEGORIES = ["simple_python", "multiple", "live_simple", "live_multiple"]
# The other categories' functions join the catalogue as tools no request
# of the set asks for, as a real catalogue holds many tools beside the one
# wanted: parallel calls, irrelevance (requests no given function
# answers), relevance, and the Java and JavaScript functions.
DISTRACTORS = [
    "parallel",
    "parallel_multiple",
    "live_parallel",
    "live_parallel_multiple",
    "irrelevance",
    "live_irrelevance",
    "live_relevance",
    "simple_java",
    "simple_javascript",
]

# The name of tool-core's built-in search, which a registry with deferred
# tools keeps for itself.
RESERVED = "tool_search"

# BFCL's own type names (Python's and Java's) to JSON Schema's, as BFCL
# maps them for OpenAI; "any" (or none) becomes no type constraint, and a
# name unknown here "string", as BFCL makes it.
TYPES = {
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "array": "array",
    "object": "object",
    "dict": "object",
    "float": "number",
    "double": "number",
    "long": "integer",
    "tuple": "array",
    "list": "array",
    "bool": "boolean",
    "String": "string",
    "char": "string",
    "Boolean": "boolean",
    "Array": "array",
    "ArrayList": "array",
    "HashMap": "object",
}


def git_show(git_dir, commit, path):
    out = subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
    ).stdout
    return [json.loads(line) for line in out.decode("utf-8").splitlines() if line.strip()]


def to_json_schema(schema):
    """The schema with BFCL's type names made JSON Schema's, recursively."""
    if isinstance(schema, list):
        return [to_json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            if value in ("any", ""):
                continue
            out[key] = TYPES.get(value, "string")
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: to_json_schema(prop) for name, prop in value.items()}
        elif key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf"):
            out[key] = to_json_schema(value)
        else:
            out[key] = value
    return out


def half(answer):
    """"tune" or "test", by the function asked for: every request for one
    function falls in the same half, so the test half's functions are
    never seen while tuning (BFCL's neighbouring live requests often share
    a function and wording, which an odd/even split would leak)."""
    digest = hashlib.sha256("\n".join(sorted(answer)).encode("utf-8")).digest()
    return "tune" if digest[0] % 2 == 1 else "test"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    git_dir = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else COMMIT
    out_dir = Path(__file__).resolve().parent

    # One catalogue, one tool per name (a registry holds one tool of each
    # name), in order of first appearance. BFCL gives many functions again
    # with their descriptions reworded (its live data has up to 18 wordings
    # of one function, most of them the same function given to several
    # requests): the first wording is kept, the others counted. A function
    # named as tool-core's built-in search (one "Search for hacking tools
    # on GitHub", never an answer) is registered with "_" appended, which
    # adds no word for any tokenizer.
    answers = {
        category: {
            entry["id"]: entry["ground_truth"]
            for entry in git_show(git_dir, commit, f"{DATA}/possible_answer/BFCL_v4_{category}.json")
        }
        for category in CATEGORIES
    }
    tools = []
    by_name = {}
    reworded = set()
    queries = []
    for category in CATEGORIES + DISTRACTORS:
        asked = git_show(git_dir, commit, f"{DATA}/BFCL_v4_{category}.json")
        for entry in asked:
            for function in entry["function"]:
                name = function["name"]
                if name in by_name:
                    if tools[by_name[name]]["description"] != function["description"]:
                        reworded.add((name, function["description"]))
                    continue
                by_name[name] = len(tools)
                tools.append(
                    {
                        "name": name + "_" if name == RESERVED else name,
                        "function": name,
                        "description": function["description"],
                        "parameters": to_json_schema(function["parameters"]),
                    }
                )
            if category not in CATEGORIES:
                continue
            request = "\n".join(
                message["content"]
                for turn in entry["question"]
                for message in turn
                if message["role"] == "user"
            )
            answer = sorted({name for call in answers[category][entry["id"]] for name in call})
            queries.append(
                {
                    "id": entry["id"],
                    "query": request,
                    "labels": [tools[by_name[name]]["name"] for name in answer],
                    "half": half(answer),
                }
            )

    with open(out_dir / "tools.jsonl", "w", encoding="utf-8") as f:
        for tool in tools:
            f.write(json.dumps(tool, ensure_ascii=False, separators=(",", ":")) + "\n")
    with open(out_dir / "queries.jsonl", "w", encoding="utf-8") as f:
        for query in queries:
            f.write(json.dumps(query, ensure_ascii=False, separators=(",", ":")) + "\n")
    tune = sum(1 for query in queries if query["half"] == "tune")
    print(
        f"{len(tools)} tools ({len(reworded)} rewordings left out), {len(queries)} queries "
        f"({tune} tune, {len(queries) - tune} test) from {commit}"
    )


if __name__ == "__main__":
    main()
