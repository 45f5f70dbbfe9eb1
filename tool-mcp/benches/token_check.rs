//! What checking an OAuth access token costs a request, against the static
//! bearer token (a constant-time comparison): one `HttpServer` (stateless,
//! both credentials accepted, two tools), one kept-alive reqwest client in
//! the same process, `tools/list` sent one at a time with the static token,
//! an ES256 JWT and an RS256 JWT, the three alternating request after
//! request so that a disturbance hits all three alike. Reports each one's
//! median and 90th percentile, and the medians' ratios to the static
//! token's.
//!
//! Usage: `cargo bench -p tool-mcp --bench token_check` (about 10 s). Not
//! part of `cargo test`.

#[path = "../tests/mcp/oauth/signer.rs"]
#[allow(dead_code)]
mod signer;

use signer::{AUDIENCE, ISSUER, SigningKey, TempDir, claims, write_jwks};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use tool_core::{ToolRegistry, tool};
use tool_mcp::{HttpServer, OAuthConfig};

/// Show what is there
#[tool(read_only)]
async fn look() -> String {
    "looked".to_owned()
}

/// Change something
#[tool(destructive)]
async fn change() -> String {
    "changed".to_owned()
}

const STATIC_TOKEN: &str = "a-static-token-of-some-length-0123456789";
const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
const WARMUP: usize = 300;
const ROUNDS: usize = 4000;

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return; // `cargo bench -- --list` asks every bench for its names
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(measure());
}

async fn measure() {
    let dir = TempDir::new("bench");
    let jwks = dir.join("jwks.json");
    let es = SigningKey::es256("es-1");
    let rs = SigningKey::rs256("rs-1");
    write_jwks(&jwks, &[&es, &rs]);
    let mut tools = ToolRegistry::new();
    tools.register(LookTool).unwrap();
    tools.register(ChangeTool).unwrap();
    let server = HttpServer::bind(tools, "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap()
        .stateless()
        .with_bearer_token(STATIC_TOKEN)
        .with_oauth(OAuthConfig::new(ISSUER, AUDIENCE, &jwks));
    let url = format!("http://{}/mcp", server.local_addr().unwrap());
    let shutdown = CancellationToken::new();
    let serving = tokio::spawn(server.run(shutdown.clone()));

    let scope = claims("tools:read tools:write");
    let kinds = [
        ("static token", STATIC_TOKEN.to_owned()),
        ("ES256 JWT", es.sign(&scope)),
        ("RS256 JWT", rs.sign(&scope)),
    ];
    let client = reqwest::Client::new();
    let send = |token: &str| {
        client
            .post(&url)
            .bearer_auth(token)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2025-11-25")
            .body(LIST)
            .send()
    };
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(ROUNDS); kinds.len()];
    for round in 0..WARMUP + ROUNDS {
        for (index, (name, token)) in kinds.iter().enumerate() {
            let started = Instant::now();
            let response = send(token).await.unwrap();
            let status = response.status();
            response.bytes().await.unwrap();
            let took = started.elapsed();
            assert_eq!(status, 200, "{name}");
            if round >= WARMUP {
                times[index].push(took);
            }
        }
    }
    shutdown.cancel();
    serving.await.unwrap().unwrap();

    println!("tools/list over HTTP on loopback, one at a time, {ROUNDS} requests each:");
    let baseline = median(&mut times[0].clone());
    for ((name, _), times) in kinds.iter().zip(&mut times) {
        times.sort();
        let p50 = times[times.len() / 2];
        let p90 = times[times.len() * 9 / 10];
        let ratio = p50.as_secs_f64() / baseline.as_secs_f64();
        println!("  {name:<13} p50 {p50:>9.1?}  p90 {p90:>9.1?}  {ratio:.2}x the static token");
    }
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}
