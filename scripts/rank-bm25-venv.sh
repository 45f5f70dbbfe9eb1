# Sourced by scripts/bm25-compare.sh and scripts/search-eval.sh: the
# absolute target directory ($target) and a venv under it with rank_bm25
# 0.2.2 installed the first time ($venv), the reference both compare
# tool_search's ranking with.
target=${CARGO_TARGET_DIR:-target}
mkdir -p "$target"
target=$(cd "$target" && pwd)
venv="$target/bm25-venv"
if ! "$venv/bin/python" -c "import rank_bm25" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "rank_bm25==0.2.2"
fi
