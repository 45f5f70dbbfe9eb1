# MCP authorization with the official SDKs' own OAuth clients (Python's
# ClientCredentialsOAuthProvider, TypeScript's ClientCredentialsProvider): an
# authorization server (interop/python/auth_server.py: RFC 8414 metadata,
# client credentials, ES256 JWTs for the `resource` asked for) and
# `tool-examples mcp --http --oauth-issuer --audience --jwks-file`. The SDK
# is given only the MCP URL and its client credentials: it must find the
# authorization server from the server's 401 and protected resource
# metadata, get a token for this resource, and use it. Scopes decide what
# it lists and may call (interop/python/oauth.py on 2026-07-28 and
# 2025-11-25, interop/node/oauth.mjs).
source "$(dirname "$0")/../lib.sh"

port=$(free_port)
resource="http://127.0.0.1:$port/mcp"
jwks="$SCRATCH/jwks.json"
"$PY" "$ROOT/interop/python/auth_server.py" "$jwks" "$resource" \
  >"$SCRATCH/auth.out" 2>"$SCRATCH/auth.log" &
PIDS+=("$!")
tries=0
until grep -qs 'listening on' "$SCRATCH/auth.out"; do
  tries=$((tries + 1))
  [[ $tries -le 200 ]] || { cat "$SCRATCH/auth.log" >&2; fail "the authorization server did not start"; }
  sleep 0.05
done
issuer="http://127.0.0.1:$(sed 's/listening on //' "$SCRATCH/auth.out")"

root="$SCRATCH/root"
mkdir -p "$root"
start_mcp oauth --http "127.0.0.1:$port" --root "$root" \
  --oauth-issuer "$issuer" --audience "$resource" --jwks-file "$jwks"

echo "-- the metadata, with no token"
http_get "http://127.0.0.1:$port/.well-known/oauth-protected-resource/mcp"
echo
for mode in auto legacy; do
  echo "-- Python SDK ($mode): discovery, a token, scopes"
  : >"$SCRATCH/auth.log"
  # The reader's refusal was our 403 insufficient_scope: the SDK asked
  # for a token again, with the scope the challenge named (and was
  # granted no more), before giving up.
  "$PY" "$ROOT/interop/python/oauth.py" "$resource" "$issuer" "$mode" &&
    [[ $(grep -c 'token asked: client=reader scope=.*tools:write' "$SCRATCH/auth.log") -ge 2 ]] || {
    echo "authorization server log:" >&2
    cat "$SCRATCH/auth.log" >&2
    echo "MCP server log:" >&2
    cat "$(log_of oauth)" >&2
    fail "Python SDK ($mode) OAuth"
  }
done
echo "-- TypeScript SDK: discovery, a token, scopes"
(cd "$NODE_DIR" && node oauth.mjs "$resource" "$issuer") || {
  cat "$SCRATCH/auth.log" >&2
  cat "$(log_of oauth)" >&2
  fail "TypeScript SDK OAuth"
}
echo "both SDKs found, got and used their tokens"
