# The approval ledger several processes share, on a real redis-server:
# tool-redis's ledger keeps the contract every ledger keeps
# (tests/src/ledger_check.rs, run here as the test cargo test lists as
# ignored), and `tool-examples call` processes given one approval key and
# one store (--state-url) resume an approval once between them: the
# process that applies a decision line first runs the write, the same line
# replayed to another process is refused. Without the store
# (--approval-ledger none) each process remembers only its own, as the
# docs say; a key file with neither is refused. Then two `tool-examples mcp
# --http --stateless` processes with the key and the store: a 2026-07-28
# requestState that ran its call on one is refused on the other
# (tests/tests/mcp/approval.rs, the test listed as ignored there).
source "$(dirname "$0")/../lib.sh"

start_redis
echo "-- the ledger's contract and two connections sharing it (tests/tests/executor/approval_lifecycle.rs)"
# `--workspace`, as the suite's build: a narrower selection would resolve
# other features and build everything again.
(cd "$ROOT" && TOOL_REDIS_URL="$REDIS_URL" cargo test --quiet --workspace --test executor \
  the_redis_ledger -- --ignored) || fail "the Redis ledger's tests"

root="$SCRATCH/root"
mkdir -p "$root"
head -c 48 /dev/urandom | base64 >"$SCRATCH/approval.key"
call() {
  "$BIN" call --root "$root" --approval-key-file "$SCRATCH/approval.key" "$@"
}
field() {
  "$PY" -c 'import json, sys; print(json.loads(sys.stdin.read())[sys.argv[1]])' "$1"
}

echo "-- call processes sharing the key and the store"
request=$(echo '{"id":"c1","name":"write","arguments":{"path":"a.txt","content":"hi"}}' \
  | call --state-url "$REDIS_URL")
[[ $(field type <<<"$request") == approvalRequest ]] || fail "no approval request: $request"
[[ ! -e "$root/a.txt" ]] || fail "the write ran before it was approved"
decision=$("$PY" -c 'import json, sys
request = json.loads(sys.argv[1])
print(json.dumps({"type": "approval", "toolCallId": request["toolCallId"], "decision": "approve", "suspension": request["suspension"]}))' "$request")
first=$(echo "$decision" | call --state-url "$REDIS_URL")
[[ $(field isError <<<"$first") == False ]] || fail "the approved write failed: $first"
[[ $(cat "$root/a.txt") == hi ]] || fail "the approved write did not write"
rm "$root/a.txt"
replay=$(echo "$decision" | call --state-url "$REDIS_URL")
[[ $(field type <<<"$replay") == approvalError ]] || fail "a replay in another process ran: $replay"
grep -q "resumed or closed already" <<<"$replay" || fail "the replay's refusal says why: $replay"
[[ ! -e "$root/a.txt" ]] || fail "the replayed write ran"

echo "-- without the store, each process remembers only its own"
request=$(echo '{"id":"c2","name":"write","arguments":{"path":"b.txt","content":"once"}}' \
  | call --approval-ledger none)
decision=$("$PY" -c 'import json, sys
request = json.loads(sys.argv[1])
print(json.dumps({"type": "approval", "toolCallId": request["toolCallId"], "decision": "approve", "suspension": request["suspension"]}))' "$request")
for n in 1 2; do
  out=$(echo "$decision" | call --approval-ledger none)
  [[ $(field isError <<<"$out") == False ]] || fail "process $n: $out"
done
echo "(a state replayed to a second process without a shared ledger ran again there, as documented)"

echo "-- a key file with neither a store nor --approval-ledger none is refused"
set +e
refused=$(call </dev/null 2>&1)
status=$?
set -e
[[ $status -eq 2 ]] || fail "expected a usage error (exit 2), got $status: $refused"
grep -q -- "--approval-ledger none" <<<"$refused" || fail "the refusal names --approval-ledger none: $refused"
echo "-- two MCP processes sharing the key and the store"
mcp_root="$SCRATCH/mcp-root"
mkdir -p "$mcp_root"
urls=()
for n in 1 2; do
  start_mcp "mcp-$n" --http 127.0.0.1:0 --stateless --root "$mcp_root" \
    --approval-key-file "$SCRATCH/approval.key" --state-url "$REDIS_URL"
  urls+=("http://$ADDRESS/mcp")
done
(cd "$ROOT" && TOOL_MCP_REPLAY_URLS="${urls[0]},${urls[1]}" TOOL_MCP_REPLAY_ROOT="$mcp_root" \
  cargo test --quiet --workspace --test mcp a_request_state_replayed_to_another_process -- --ignored) \
  || fail "a requestState replayed to another process sharing the store"
echo "ledger shared"
