//! `tool-examples mcp --http` as an OAuth resource server, end to end: the
//! flags, the metadata it serves, tokens signed here, and what it sends a
//! federated upstream. The upstream sits behind a recording proxy that
//! keeps every request's headers: it must see the aggregator's own
//! credential (`--upstream-token-file`), never the client's token, as the
//! MCP authorization specification requires ("token passthrough" is
//! forbidden:
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#token-handling>).

use crate::support::mcp::{binary, bounded};
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tool_core::{DynamicTool, ToolAnnotations, ToolOutput, ToolRegistry};

const ISSUER: &str = "https://auth.example.com";
const AUDIENCE: &str = "https://mcp.example.com/mcp";
const UPSTREAM_SECRET: &str = "upstream-secret-1";
const CLIENT_STATIC: &str = "client-static-token";

/// A P-256 key made for the test: the key that signs, its public JWK.
fn signing_key() -> (EncodingKey, Jwk) {
    use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair};
    let pair = EcdsaKeyPair::generate(&ECDSA_P256_SHA256_FIXED_SIGNING).unwrap();
    let key = EncodingKey::from_ec_der(pair.to_pkcs8v1().unwrap().as_ref());
    let mut jwk = Jwk::from_encoding_key(&key, Algorithm::ES256).unwrap();
    jwk.common.key_id = Some("test-1".to_owned());
    (key, jwk)
}

/// A signing key, its public half written as the JWKS file `jwks.json` in
/// `dir` (the file's path given back).
fn key_in_jwks_file(dir: &std::path::Path) -> (EncodingKey, std::path::PathBuf) {
    let (key, jwk) = signing_key();
    let jwks = dir.join("jwks.json");
    std::fs::write(
        &jwks,
        serde_json::to_string(&JwkSet { keys: vec![jwk] }).unwrap(),
    )
    .unwrap();
    (key, jwks)
}

fn token(key: &EncodingKey, scope: &str) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let mut header = Header::new(Algorithm::ES256);
    header.typ = Some("at+jwt".to_owned());
    header.kid = Some("test-1".to_owned());
    let claims = json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "alice",
                        "scope": scope, "exp": now + 300});
    jsonwebtoken::encode(&header, &claims, key).unwrap()
}

/// The upstream: one read-only tool, behind its own static token,
/// stateless (each answer is whole, so the proxy can relay it as it comes).
async fn upstream() -> (SocketAddr, tokio_util::sync::CancellationToken) {
    let mut tools = ToolRegistry::new();
    let mut read_only = ToolAnnotations::default();
    read_only.read_only = Some(true);
    tools
        .register(
            DynamicTool::new("echo", "Echo", |args, _ctx| async move {
                Ok(ToolOutput::text(
                    args["value"].as_str().unwrap_or("").to_owned(),
                ))
            })
            .with_annotations(read_only),
        )
        .unwrap();
    let server = tool_mcp::HttpServer::bind(tools, "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap()
        .with_bearer_token(UPSTREAM_SECRET)
        .stateless();
    let address = server.local_addr().unwrap();
    let shutdown = tokio_util::sync::CancellationToken::new();
    tokio::spawn(server.run(shutdown.clone()));
    (address, shutdown)
}

/// A proxy in front of `upstream` that records each request's head (its
/// request line and headers) and relays it, one request per connection.
async fn recording_proxy(upstream: SocketAddr) -> (SocketAddr, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let heads = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&heads);
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            tokio::spawn(relay(client, upstream, Arc::clone(&recorded)));
        }
    });
    (address, heads)
}

async fn relay(client: TcpStream, upstream: SocketAddr, heads: Arc<Mutex<Vec<String>>>) {
    let mut client = BufReader::new(client);
    let mut head = String::new();
    let mut length = 0;
    loop {
        let mut line = String::new();
        if client.read_line(&mut line).await.unwrap_or(0) == 0 {
            return;
        }
        if line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap();
        }
        // One request per connection: the upstream closes after answering.
        if !line.to_ascii_lowercase().starts_with("connection:") {
            head.push_str(&line);
        }
    }
    let mut body = vec![0; length];
    client.read_exact(&mut body).await.unwrap();
    heads.lock().unwrap().push(head.clone());
    let mut server = TcpStream::connect(upstream).await.unwrap();
    server
        .write_all(format!("{head}Connection: close\r\n\r\n").as_bytes())
        .await
        .unwrap();
    server.write_all(&body).await.unwrap();
    let mut answer = Vec::new();
    server.read_to_end(&mut answer).await.unwrap();
    let _ = client.get_mut().write_all(&answer).await;
    let _ = client.get_mut().shutdown().await;
}

struct Posted {
    status: u16,
    challenge: String,
    json: Value,
}

async fn post(address: SocketAddr, authorization: Option<&str>, body: Value) -> Posted {
    let mut request = reqwest::Client::new()
        .post(format!("http://{address}/mcp"))
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .header("MCP-Protocol-Version", "2025-06-18")
        .body(body.to_string());
    if let Some(authorization) = authorization {
        request = request.header("Authorization", authorization);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map_or_else(String::new, |value| value.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    Posted {
        status,
        challenge,
        json: serde_json::from_str(&text).unwrap_or(Value::Null),
    }
}

fn list() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
}

fn call(name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oauth_flags_serve_the_metadata_and_no_token_passes_upstream() {
    let dir = tempfile::tempdir().unwrap();
    let (key, jwks) = key_in_jwks_file(dir.path());
    let secret_file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        path
    };
    let client_token_file = secret_file("client-token", CLIENT_STATIC);
    let upstream_token_file = secret_file("upstream-token", UPSTREAM_SECRET);
    let (upstream, stop_upstream) = upstream().await;
    let (proxy, heads) = recording_proxy(upstream).await;

    let mut server = binary()
        .args(["mcp", "--http", "127.0.0.1:0", "--stateless", "--root"])
        .arg(dir.path())
        .args([
            "--oauth-issuer",
            ISSUER,
            "--audience",
            AUDIENCE,
            "--jwks-file",
        ])
        .arg(&jwks)
        .arg("--token-file")
        .arg(&client_token_file)
        .args(["--upstream", &format!("far=http://{proxy}/mcp")])
        .arg("--upstream-token-file")
        .arg(format!("far={}", upstream_token_file.display()))
        // Its echo's readOnlyHint is taken as true: the read scope may
        // call it (untrusted, it would need tools:write).
        .args(["--upstream-trust", "far"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let mut stderr = BufReader::new(server.stderr.take().unwrap()).lines();
    let mut address = None;
    let mut authentication = None;
    while address.is_none() || authentication.is_none() {
        let line = bounded("the server's address", stderr.next_line())
            .await
            .unwrap()
            .expect("a line on stderr");
        if let Some((_, rest)) = line.split_once("serving MCP on http://") {
            address = rest
                .strip_suffix("/mcp (Ctrl-C to stop)")
                .map(str::to_owned);
        }
        if let Some((_, rest)) = line.split_once("authentication: ") {
            authentication = Some(rest.to_owned());
        }
    }
    let address: SocketAddr = address.unwrap().parse().unwrap();
    assert_eq!(
        authentication.unwrap(),
        format!(
            "bearer token from --token-file {}; OAuth access tokens from {ISSUER} for {AUDIENCE} \
             (scopes tools:read, tools:write)",
            client_token_file.display()
        )
    );
    tokio::spawn(async move { while let Ok(Some(_)) = stderr.next_line().await {} });

    bounded("the OAuth checks", async {
        let metadata: Value = reqwest::get(format!(
            "http://{address}/.well-known/oauth-protected-resource/mcp"
        ))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        assert_eq!(metadata["resource"], AUDIENCE);
        assert_eq!(metadata["authorization_servers"], json!([ISSUER]));

        let anonymous = post(address, None, list()).await;
        assert_eq!(anonymous.status, 401);
        assert!(anonymous.challenge.starts_with(
            "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\""
        ), "{}", anonymous.challenge);

        let reader = format!("Bearer {}", token(&key, "tools:read"));
        let listed = post(address, Some(&reader), list()).await;
        assert_eq!(listed.status, 200);
        let names: Vec<&str> = listed.json["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| tool["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"far__echo") && names.contains(&"read"), "{names:?}");
        assert!(!names.contains(&"write"), "write needs tools:write: {names:?}");
        let refused = post(address, Some(&reader), call("write", json!({"path": "x", "content": "y"}))).await;
        assert_eq!(refused.status, 403);
        assert!(refused.challenge.contains("scope=\"tools:write\""), "{}", refused.challenge);

        let echoed = post(address, Some(&reader), call("far__echo", json!({"value": "over"}))).await;
        assert_eq!(echoed.status, 200);
        assert_eq!(echoed.json["result"]["content"][0]["text"], "over", "{}", echoed.json);
        let statically = format!("Bearer {CLIENT_STATIC}");
        let echoed = post(address, Some(&statically), call("far__echo", json!({"value": "again"}))).await;
        assert_eq!(echoed.json["result"]["content"][0]["text"], "again", "{}", echoed.json);
    })
    .await;

    let heads = heads.lock().unwrap().clone();
    assert!(
        heads.len() >= 3,
        "list and two calls reached the upstream: {heads:?}"
    );
    let reader = token(&key, "tools:read");
    let jwt_head = reader.split('.').next().unwrap();
    for head in &heads {
        let authorizations: Vec<&str> = head
            .lines()
            .filter_map(|line| line.split_once(':'))
            .filter(|(name, _)| name.eq_ignore_ascii_case("authorization"))
            .map(|(_, value)| value.trim())
            .collect();
        assert_eq!(
            authorizations,
            [format!("Bearer {UPSTREAM_SECRET}")],
            "{head}"
        );
        // Neither client credential, in any header.
        assert!(
            !head.contains(CLIENT_STATIC) && !head.contains(jwt_head),
            "{head}"
        );
    }
    stop_upstream.cancel();
}

/// A `--tool-scope` naming no tool (a misspelling) would leave the tool
/// meant at the default scope and advertise a scope nothing needs: a usage
/// error listing the tools. A `--upstream-trust` naming no upstream is
/// refused the same way (the upstream meant would stay untrusted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_scope_or_a_trust_naming_nothing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, jwks) = key_in_jwks_file(dir.path());
    let misspelt = binary()
        .args(["mcp", "--http", "127.0.0.1:0", "--root"])
        .arg(dir.path())
        .args([
            "--oauth-issuer",
            ISSUER,
            "--audience",
            AUDIENCE,
            "--jwks-file",
        ])
        .arg(&jwks)
        .args(["--tool-scope", "wrtie=admin"])
        .stdin(Stdio::null())
        .output();
    let out = bounded("the refusal", misspelt).await.unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "--tool-scope wrtie=...: no tool is named wrtie (the tools are: echo, label, list, \
             read, upper, wait, write)"
        ),
        "{stderr}"
    );

    let (upstream, stop) = upstream().await;
    let untrusted = binary()
        .args(["mcp", "--http", "127.0.0.1:0", "--root"])
        .arg(dir.path())
        .args(["--upstream", &format!("far=http://{upstream}/mcp")])
        .args(["--upstream-trust", "fra"])
        .stdin(Stdio::null())
        .output();
    let out = bounded("the refusal", untrusted).await.unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("--upstream-trust fra: no --upstream is named fra (the upstreams are far)"),
        "{stderr}"
    );
    stop.cancel();
}
