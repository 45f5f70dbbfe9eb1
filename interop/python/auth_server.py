"""A small OAuth 2.1 authorization server for the interop check: what a real
one (Keycloak, Auth0, ...) shows an MCP client, reduced to the
client-credentials grant.

- RFC 8414 metadata at /.well-known/oauth-authorization-server
- POST /token: client_credentials, the client authenticated by HTTP Basic or
  form fields; the `resource` (RFC 8707) must be the MCP server's URL, and
  becomes the token's `aud`; the scope granted is what the client may have
  of what it asked for
- the access token is an ES256 JWT (RFC 9068 claims), signed by a key made
  at start, whose public half is written as a JWKS document to the file the
  MCP server reads

Usage: python auth_server.py JWKS_FILE RESOURCE
Prints `listening on PORT` once it serves; logs each request on stderr.
"""

import base64
import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives.asymmetric import ec

KEY_ID = "interop-es256"
# client_id: (secret, the scopes it may have)
CLIENTS = {
    "reader": ("reader-secret", {"tools:read"}),
    "writer": ("writer-secret", {"tools:read", "tools:write"}),
}


def main(jwks_file: str, resource: str) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
    public.update({"kid": KEY_ID, "use": "sig", "alg": "ES256"})
    with open(jwks_file, "w") as out:
        json.dump({"keys": [public]}, out)

    server = ThreadingHTTPServer(("127.0.0.1", 0), None)
    issuer = f"http://127.0.0.1:{server.server_address[1]}"

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, fmt, *args):
            sys.stderr.write("auth server: " + (fmt % args) + "\n")

        def answer(self, status: int, body: dict, headers: dict | None = None) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "no-store")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path == "/.well-known/oauth-authorization-server":
                self.answer(200, {
                    "issuer": issuer,
                    # Required by RFC 8414 (and the SDK's model) though
                    # this server grants only client credentials.
                    "authorization_endpoint": f"{issuer}/authorize",
                    "token_endpoint": f"{issuer}/token",
                    "grant_types_supported": ["client_credentials"],
                    "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
                    "response_types_supported": ["code"],
                    "scopes_supported": ["tools:read", "tools:write"],
                })
            else:
                self.answer(404, {"error": "not_found"})

        def do_POST(self):
            if self.path != "/token":
                return self.answer(404, {"error": "not_found"})
            length = int(self.headers.get("Content-Length", "0"))
            form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
            client_id, secret = form.get("client_id"), form.get("client_secret")
            basic = self.headers.get("Authorization", "")
            if basic.startswith("Basic "):
                pair = base64.b64decode(basic[6:]).decode()
                client_id, _, secret = pair.partition(":")
                client_id = urllib.parse.unquote(client_id)
                secret = urllib.parse.unquote(secret)
            known = CLIENTS.get(client_id or "")
            if known is None or known[0] != secret:
                return self.answer(401, {"error": "invalid_client"}, {"WWW-Authenticate": "Basic"})
            if form.get("grant_type") != "client_credentials":
                return self.answer(400, {"error": "unsupported_grant_type"})
            if form.get("resource") != resource:
                return self.answer(400, {
                    "error": "invalid_target",
                    "error_description": f"resource {form.get('resource')!r} is not {resource!r}",
                })
            # As most servers do (RFC 6749 section 3.3 allows it): grant
            # what the client may have of what it asked for, and say so.
            asked = set(form.get("scope", "").split()) or known[1]
            sys.stderr.write(f"token asked: client={client_id} scope={' '.join(sorted(asked))}\n")
            asked &= known[1]
            if not asked:
                return self.answer(400, {"error": "invalid_scope"})
            now = int(time.time())
            scope = " ".join(sorted(asked))
            token = jwt.encode(
                {"iss": issuer, "aud": resource, "sub": client_id, "client_id": client_id,
                 "scope": scope, "iat": now, "exp": now + 300, "jti": f"{client_id}-{now}"},
                key, algorithm="ES256", headers={"kid": KEY_ID, "typ": "at+jwt"},
            )
            self.answer(200, {"access_token": token, "token_type": "Bearer", "expires_in": 300, "scope": scope})

    server.RequestHandlerClass = Handler
    print(f"listening on {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    threading.Event().wait()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
