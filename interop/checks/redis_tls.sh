# The shared store behind TLS and a password, as a deployment runs it
# (docs/deploying.md): a redis-server with a certificate of a CA made here
# and `requirepass`; `tool-examples mcp --http --state-url rediss://..`
# with the password in --state-password-file serves a legacy session
# through it, the server's certificate checked against the CA
# (SSL_CERT_FILE, which rustls-native-certs reads as the system's roots).
# A wrong password, or a certificate no root vouches for, stops the
# process at start, naming the store and never the password.
source "$(dirname "$0")/../lib.sh"

tls="$SCRATCH/tls"
mkdir -p "$tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=interop CA" \
  -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
  -keyout "$tls/redis.key" -out "$tls/redis.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$tls/san.ext"
openssl x509 -req -in "$tls/redis.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial \
  -days 1 -extfile "$tls/san.ext" -out "$tls/redis.pem" 2>/dev/null
password=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
printf '%s\n' "$password" >"$SCRATCH/redis-password"
chmod 600 "$SCRATCH/redis-password"

port=$(free_port)
mkdir -p "$SCRATCH/redis"
redis-server --port 0 --tls-port "$port" --bind 127.0.0.1 --save '' --appendonly no \
  --tls-cert-file "$tls/redis.pem" --tls-key-file "$tls/redis.key" --tls-ca-cert-file "$tls/ca.pem" \
  --tls-auth-clients no --requirepass "$password" \
  --dir "$SCRATCH/redis" --logfile "$SCRATCH/redis/redis.log" &
PIDS+=("$!")
tries=0
until REDISCLI_AUTH="$password" redis-cli --tls --cacert "$tls/ca.pem" -h localhost -p "$port" ping 2>/dev/null | grep -q PONG; do
  tries=$((tries + 1))
  [[ $tries -lt 100 ]] || fail "redis-server with TLS did not start: $(cat "$SCRATCH/redis/redis.log")"
  sleep 0.05
done
url="rediss://localhost:$port/0"

echo "-- rediss:// and --state-password-file"
SSL_CERT_FILE="$tls/ca.pem" start_mcp tls --http 127.0.0.1:0 --state-url "$url" \
  --state-password-file "$SCRATCH/redis-password"
[[ $(http_get "http://$ADDRESS/readyz") == ready ]] || fail "/readyz with the store behind TLS"
"$PY" "$ROOT/interop/python/calls.py" "http://$ADDRESS/mcp" legacy || fail "a legacy session on a store behind TLS"
# The client closed its session at the end (gone from the store): the
# scripts run for it say the store was used.
scripts=$(REDISCLI_AUTH="$password" redis-cli --tls --cacert "$tls/ca.pem" -h localhost -p "$port" \
  info commandstats | grep -o 'cmdstat_evalsha:calls=[0-9]*' | cut -d= -f2)
[[ ${scripts:-0} -ge 1 ]] || fail "the session never reached the store behind TLS"
echo "served through TLS: $scripts scripts run in the store"

refused_start() {
  local name=$1 expect=$2
  shift 2
  local log="$SCRATCH/$name.log"
  if timeout 60 "$@" >"$log" 2>&1; then
    fail "$name: started anyway"
  fi
  grep -q "$expect" "$log" || fail "$name: not refused for the reason expected ($expect): $(tail -3 "$log")"
  ! grep -q "$password" "$log" || fail "$name: the password reached the output"
  echo "$name: refused at start: $(grep -o "does not answer.*" "$log" | head -1)"
}

echo "-- a wrong password, a certificate no root vouches for"
printf 'not-the-password\n' >"$SCRATCH/wrong-password"
chmod 600 "$SCRATCH/wrong-password"
refused_start wrong-password "the shared store at localhost:$port (database 0) does not answer: .*AuthenticationFailed" \
  env SSL_CERT_FILE="$tls/ca.pem" "$BIN" mcp --http 127.0.0.1:0 --state-url "$url" \
  --state-password-file "$SCRATCH/wrong-password"
refused_start untrusted "the shared store at localhost:$port (database 0) does not answer: .*UnknownIssuer" \
  env SSL_CERT_FILE=/dev/null "$BIN" mcp --http 127.0.0.1:0 --state-url "$url" \
  --state-password-file "$SCRATCH/redis-password"
echo "ok"
