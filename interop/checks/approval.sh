# A call that needs a person's approval (`write`), served by `tool-examples
# mcp`, asked of the official SDKs' people: the Python SDK on 2026-07-28
# (an InputRequiredResult it drives itself) and 2025-11-25
# (elicitation/create), the TypeScript SDK on 2025-11-25, over HTTP with
# sessions and over stdio. Accept writes the file; decline and cancel write
# nothing; a client without elicitation is told why. Against a --stateless
# server, 2026-07-28 asks as with sessions and an older client is told that
# no question can reach it.
source "$(dirname "$0")/../lib.sh"

for kind in sessions stateless; do
  root="$SCRATCH/$kind"
  mkdir -p "$root"
  extra=()
  [[ $kind == stateless ]] && extra=(--stateless)
  start_mcp "$kind" --http 127.0.0.1:0 --root "$root" "${extra[@]}"
  url="http://$ADDRESS/mcp"
  legacy=()
  [[ $kind == stateless ]] && legacy=(without-sessions)
  echo "-- Python SDK, mode auto, server with $kind"
  "$PY" "$ROOT/interop/python/approval.py" "$url" auto "$root" \
    || fail "Python SDK (auto) approval against $kind"
  echo "-- Python SDK, mode legacy, server with $kind"
  "$PY" "$ROOT/interop/python/approval.py" "$url" legacy "$root" "${legacy[@]}" \
    || fail "Python SDK (legacy) approval against $kind"
  echo "-- TypeScript SDK, server with $kind"
  (cd "$NODE_DIR" && node approval.mjs "$url" "$root" "${legacy[@]}") \
    || fail "TypeScript SDK approval against $kind"
done
echo "-- Python SDK over stdio, both modes"
root="$SCRATCH/stdio"
mkdir -p "$root"
for mode in auto legacy; do
  "$PY" "$ROOT/interop/python/approval.py" "stdio:$BIN mcp --root $root" "$mode" "$root" \
    || fail "Python SDK ($mode) approval over stdio"
done
echo "all clients asked"
