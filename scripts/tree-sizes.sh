#!/usr/bin/env bash
# What a user pays for: the distinct crates (tool-core's own included) each
# configuration of the published crates pulls in, checked against its
# limit, so that a dependency added to a default tree fails CI instead of
# landing unseen. The counts are cargo tree's, normal dependencies only
# (what a user's build compiles), each crate once whatever its features.
#
# Usage: scripts/tree-sizes.sh          (checks every limit)
#        scripts/tree-sizes.sh --print  (only prints the counts)
set -euo pipefail
cd "$(dirname "$0")/.."

# package | features ("default" for the defaults) | the most crates allowed
limits=(
  "tool-core|default|50"
  "tool-core|derive|25"
  "tool-core|derive,runtime|45"
  # tool-mcp: a stdio server; the defaults (server + streamable HTTP); HTTP
  # with OAuth (jsonwebtoken, aws-lc-rs, and reqwest with rustls to fetch
  # the issuer's metadata and keys and to introspect tokens: 46 crates more
  # than the defaults, about 20 of them the url crate's idna and ICU); the
  # client alone (reqwest, rustls); the client with OAuth (rmcp's `auth`:
  # oauth2 5 and the older sha2, rand, base64 and thiserror it needs, 18
  # crates more than the client); every feature but the client's OAuth.
  "tool-mcp|server|126"
  "tool-mcp|default|140"
  "tool-mcp|http,oauth|192"
  "tool-mcp|client|172"
  "tool-mcp|client-oauth|190"
  "tool-mcp|server,http,oauth,client,otel|203"
)

# package | features | crates that must not be in that tree at all: a
# server, stdio or HTTP, builds no HTTP client and no JWT library (nor the
# C build of aws-lc-sys they bring).
absent=(
  "tool-mcp|server|reqwest,jsonwebtoken,aws-lc-sys"
  "tool-mcp|default|reqwest,jsonwebtoken,aws-lc-sys"
)

# The distinct crates (`name vX.Y.Z`) of a configuration, one a line.
crates_of() {
  local package=$1 features=$2
  local args=(-p "$package" -e normal --prefix none)
  if [[ $features != default ]]; then
    args+=(--no-default-features --features "$features")
  fi
  cargo tree "${args[@]}" | sed -e 's/ (\*)$//' -e 's/ (proc-macro)$//' | sort -u
}

count() {
  crates_of "$@" | wc -l
}

failed=0
for limit in "${limits[@]}"; do
  IFS='|' read -r package features most <<<"$limit"
  crates=$(count "$package" "$features")
  if [[ ${1:-} == --print ]]; then
    echo "$package [$features]: $crates crates"
  elif [[ $crates -gt $most ]]; then
    echo "tree-sizes: $package [$features] pulls $crates crates, over its limit of $most (cargo tree -p $package -e normal)" >&2
    failed=1
  else
    echo "$package [$features]: $crates crates (at most $most)"
  fi
done
for rule in "${absent[@]}"; do
  IFS='|' read -r package features names <<<"$rule"
  tree=$(crates_of "$package" "$features")
  IFS=',' read -ra names <<<"$names"
  for name in "${names[@]}"; do
    if grep -q "^$name v" <<<"$tree"; then
      echo "tree-sizes: $package [$features] pulls $name, which it must not (cargo tree -p $package -e normal -i $name)" >&2
      failed=1
    elif [[ ${1:-} != --print ]]; then
      echo "$package [$features]: no $name"
    fi
  done
done
exit $failed
