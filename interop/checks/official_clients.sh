# The official SDKs against `tool-examples mcp`, on every protocol
# revision they speak: the Python SDK in its default mode (2026-07-28) and
# its legacy mode (2025-11-25), the TypeScript SDK (2025-11-25), each
# against a server with sessions and a --stateless one, and the Python SDK
# over stdio too. Every call must come
# back as the SDK expects it (resultType on 2026-07-28 only, no
# structuredContent that breaks the output schema), progress must arrive,
# and each cancellation must reach the tool (its log says so).
source "$(dirname "$0")/../lib.sh"

cancellations() {
  grep -c 'cancelled after' "$(log_of "$1")" || true
}

for kind in sessions stateless; do
  extra=()
  [[ $kind == stateless ]] && extra=(--stateless)
  start_mcp "$kind" --http 127.0.0.1:0 "${extra[@]}"
  url="http://$ADDRESS/mcp"
  for mode in auto legacy; do
    echo "-- Python SDK, mode $mode, server with $kind"
    before=$(cancellations "$kind")
    "$PY" "$ROOT/interop/python/calls.py" "$url" "$mode" || fail "Python SDK ($mode) against $kind"
    [[ $(cancellations "$kind") -gt $before ]] || fail "the Python SDK's ($mode) cancellation never reached the tool ($kind)"
  done
  echo "-- TypeScript SDK, server with $kind"
  before=$(cancellations "$kind")
  (cd "$NODE_DIR" && node calls.mjs "$url") || fail "TypeScript SDK against $kind"
  [[ $(cancellations "$kind") -gt $before ]] || fail "the TypeScript SDK's cancellation never reached the tool ($kind)"
done
echo "-- Python SDK over stdio, both modes"
for mode in auto legacy; do
  "$PY" "$ROOT/interop/python/calls.py" "stdio:$BIN mcp --root $SCRATCH" "$mode" \
    || fail "Python SDK ($mode) over stdio"
done
echo "all clients passed"
