#!/usr/bin/env bash
# CORS in a real browser: headless Chromium runs interop/cors/page.html from
# origins other than the MCP server's, and the page's fetch meets the
# server's CORS as a web MCP client would. From an origin accepted by
# --allowed-origin: a preflighted initialize with a bearer token, the
# session read from the exposed Mcp-Session-Id, tools/list, a tools/call
# of echo, a DELETE of the session, the WWW-Authenticate of a 401 read by
# the page, and the protected resource metadata (OAuth beside the static
# token). From an origin not accepted: the same initialize, and a simple
# POST that needs no preflight, both fail in the page (TypeError), while
# the public metadata is still readable. Chromium's own network log must
# show the preflights: the page's fetch cannot see them, the browser can.
#
# The browser is Debian's chromium-headless-shell, not `chromium`: the same
# Blink and network service as `chromium` (CORS is enforced there, not in
# the UI), built as the headless shell Chromium ships for automation: no
# GTK, fewer and smaller packages. Measured on bookworm (156.0.8078.129,
# --no-install-recommends, the download included):
# chromium-headless-shell 18 packages, 100 MB fetched, 306 MB installed,
# 11-14 s; chromium 25 packages, 117 MB fetched, 375 MB installed, 14.5 s.
#
# The page's origins are app.cors.test and evil.cors.test, which Chromium
# maps to 127.0.0.1 (--host-resolver-rules): a loopback origin would be
# accepted by any server bound to loopback (a page served by another port
# of an accepted host is trusted), so the origin allowed must be named by
# --allowed-origin, and the one refused be a name the server does not know.
source "$(dirname "$0")/../lib.sh"

command -v chromium-headless-shell >/dev/null ||
  fail "chromium-headless-shell is not installed (scripts/interop.sh --setup-only installs it)"
# The browser itself rather than Debian's wrapper script, which runs it as
# a child: the process started is the one told to stop.
CHROMIUM=/usr/lib/chromium/chromium-headless-shell
[[ -x $CHROMIUM ]] || CHROMIUM=$(command -v chromium-headless-shell)
"$CHROMIUM" --version

# The browsers, each in a process group of its own (setsid: the browser
# starts zygote, GPU and renderer processes). SIGTERM to the browser is a
# clean shutdown, which completes its network log; what is left of its
# group after 5 s is killed.
BROWSERS=()
end_browsers() {
  local pid tries
  for pid in "${BROWSERS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${BROWSERS[@]}"; do
    tries=0
    while kill -0 "$pid" 2>/dev/null && [[ $tries -lt 50 ]]; do
      tries=$((tries + 1))
      sleep 0.1
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  BROWSERS=()
}
trap 'end_browsers; cleanup' EXIT

echo "-- the page's server, the authorization server, the MCP server"
reports="$SCRATCH/reports"
mkdir -p "$reports"
"$PY" "$ROOT/interop/cors/serve.py" "$reports" >"$SCRATCH/page.out" 2>"$SCRATCH/page.log" &
PIDS+=("$!")
port=$(free_port)
resource="http://127.0.0.1:$port/mcp"
jwks="$SCRATCH/jwks.json"
"$PY" "$ROOT/interop/python/auth_server.py" "$jwks" "$resource" \
  >"$SCRATCH/auth.out" 2>"$SCRATCH/auth.log" &
PIDS+=("$!")
tries=0
until grep -qs 'listening on' "$SCRATCH/page.out" && grep -qs 'listening on' "$SCRATCH/auth.out"; do
  tries=$((tries + 1))
  [[ $tries -le 200 ]] || {
    cat "$SCRATCH/page.log" "$SCRATCH/auth.log" >&2
    fail "the page's server or the authorization server did not start"
  }
  sleep 0.05
done
page_port=$(sed 's/listening on //' "$SCRATCH/page.out")
issuer="http://127.0.0.1:$(sed 's/listening on //' "$SCRATCH/auth.out")"
app_origin="http://app.cors.test:$page_port"
evil_origin="http://evil.cors.test:$page_port"

token="cors-check-$RANDOM$RANDOM$RANDOM"
(umask 077 && echo "$token" >"$SCRATCH/token")
root="$SCRATCH/root"
mkdir -p "$root"
# tool_mcp=debug: the refusals after the first are logged at debug.
# --drain-delay 0: no balancer to drain from, the check ends at once.
RUST_LOG=warn,tool_examples=info,tool_mcp=debug start_mcp cors --http "127.0.0.1:$port" --root "$root" \
  --token-file "$SCRATCH/token" --allowed-origin "$app_origin" \
  --oauth-issuer "$issuer" --audience "$resource" --jwks-file "$jwks" --drain-delay 0

# browse ROLE ORIGIN: Chromium on the page, as ROLE, from ORIGIN, in the
# background; its network log is $SCRATCH/ROLE.netlog.json.
browse() {
  local role=$1 origin=$2 query
  query="role=$role&mcp=$resource&metadata=http://127.0.0.1:$port/.well-known/oauth-protected-resource/mcp&token=$token"
  # --no-sandbox: root in a container has no user namespace to sandbox
  # with. --no-proxy-server: an http_proxy of the environment must not
  # take the loopback requests.
  setsid "$CHROMIUM" --no-sandbox --disable-gpu --disable-dev-shm-usage --no-proxy-server \
    --user-data-dir="$SCRATCH/profile-$role" \
    --host-resolver-rules="MAP app.cors.test 127.0.0.1, MAP evil.cors.test 127.0.0.1" \
    --log-net-log="$SCRATCH/$role.netlog.json" --net-log-capture-mode=Default \
    "$origin/page.html?$query" >"$SCRATCH/chromium-$role.log" 2>&1 &
  BROWSERS+=("$!")
}

echo "-- Chromium: the page from $app_origin (allowed) and from $evil_origin (not)"
browse app "$app_origin"
browse evil "$evil_origin"
# The page's fetches give up after 5 s each (seven at most, in turn): a
# report missing after 45 s, or a browser gone without sending its own, is
# a page that never ran.
roles=(app evil)
tries=0
until [[ -s $reports/app.json && -s $reports/evil.json ]]; do
  tries=$((tries + 1))
  why=""
  [[ $tries -le 450 ]] || why="in 45 s"
  for n in 0 1; do
    [[ -s $reports/${roles[$n]}.json ]] || kill -0 "${BROWSERS[$n]}" 2>/dev/null ||
      why="from ${roles[$n]}: its Chromium exited"
  done
  if [[ -n $why ]]; then
    for role in "${roles[@]}"; do
      [[ -s $reports/$role.json ]] || {
        echo "Chromium's output ($role):" >&2
        cat "$SCRATCH/chromium-$role.log" >&2
      }
    done
    echo "page server log:" >&2
    cat "$SCRATCH/page.log" >&2
    fail "no report from the page $why: Chromium did not load or run it"
  fi
  sleep 0.1
done
# Ended before their network logs are read: Chromium finishes the file
# on a clean exit (SIGTERM).
end_browsers

echo "-- the reports"
"$PY" "$ROOT/interop/cors/verify.py" "$reports" "$SCRATCH" "$app_origin" "$evil_origin" \
  "$resource" "$issuer" || {
  echo "MCP server log:" >&2
  cat "$(log_of cors)" >&2
  fail "CORS in Chromium (the assertions above)"
}
# The simple POST reached the server (no preflight stops it) and was
# refused there, not only hidden from the page by the browser.
grep -q "refused Origin \"$evil_origin\"" "$(log_of cors)" ||
  fail "the MCP server's log shows no refusal of $evil_origin"
echo "Chromium read MCP from the allowed origin, and was refused from the other"
