//! Keys from the issuer: an authorization server in the test (axum, on a
//! loopback port) serves its RFC 8414 metadata, its key set and an RFC
//! 7662 introspection endpoint; the server fetches the keys from it,
//! fetches them again for a rotated key's new `kid` (but not for every
//! made-up one), keeps them while the issuer is briefly down and no longer
//! than the stale limit, and introspects opaque tokens, keeping answers.
//!
//! Nothing here measures time: each wait is for something the issuer saw
//! or the server answered, bounded by the test's ceiling.

use super::signer::{AUDIENCE, SigningKey, TempDir, claims, now};
use super::{ChangeTool, LIST, LookTool, Reply, reply};
use crate::support::{Running, bounded, start_server};
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine as _;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tool_core::ToolRegistry;
use tool_mcp::{HttpServer, McpServer, OAuthConfig};

/// The issuer's path: its metadata is at
/// `/.well-known/oauth-authorization-server/realms/mcp` (RFC 8414 section
/// 3.1), not under the path.
const REALM: &str = "/realms/mcp";
const CLIENT: &str = "mcp-server";
const SECRET: &str = "s3cret";

/// What the issuer serves, and what it was asked.
#[derive(Default)]
struct Served {
    address: Option<SocketAddr>,
    keys: Vec<Jwk>,
    /// `Cache-Control: max-age` of the key set.
    max_age: u64,
    /// Every answer a 503.
    down: bool,
    /// The `issuer` its metadata names, when not its own.
    other_issuer: Option<String>,
    key_fetches: usize,
    /// Requests for the metadata or the keys answered 503.
    failed_fetches: usize,
    /// Introspection answers by token; any other token is inactive.
    active: HashMap<String, Value>,
    introspections: usize,
}

type Shared = Arc<Mutex<Served>>;

/// The authorization server of a test.
struct Issuer {
    address: SocketAddr,
    served: Shared,
}

impl Issuer {
    async fn start(keys: &[&SigningKey], max_age: u64) -> Issuer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let served = Arc::new(Mutex::new(Served {
            address: Some(address),
            keys: keys.iter().map(|key| key.jwk.clone()).collect(),
            max_age,
            ..Served::default()
        }));
        let app = Router::new()
            .route(
                &format!("/.well-known/oauth-authorization-server{REALM}"),
                get(metadata),
            )
            .route("/keys", get(key_set))
            .route("/introspect", post(introspect))
            .with_state(Arc::clone(&served));
        tokio::spawn(async move { axum::serve(listener, app).await });
        Issuer { address, served }
    }

    fn url(&self) -> String {
        format!("http://{}{REALM}", self.address)
    }

    fn served(&self) -> std::sync::MutexGuard<'_, Served> {
        self.served.lock().unwrap()
    }

    /// Claims of a token this issuer issued, with `scope`.
    fn claims(&self, scope: &str) -> Value {
        let mut claims = claims(scope);
        claims["iss"] = json!(self.url());
        claims
    }

    /// Waits until the issuer has seen `done`.
    async fn until(&self, done: impl Fn(&Served) -> bool) {
        while !done(&self.served()) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

async fn metadata(State(served): State<Shared>) -> Response {
    let mut served = served.lock().unwrap();
    if served.down {
        served.failed_fetches += 1;
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    let base = format!("http://{}", served.address.unwrap());
    let issuer = served
        .other_issuer
        .clone()
        .unwrap_or(format!("{base}{REALM}"));
    json_answer(&json!({
        "issuer": issuer,
        "jwks_uri": format!("{base}/keys"),
        "introspection_endpoint": format!("{base}/introspect"),
    }))
}

async fn key_set(State(served): State<Shared>) -> Response {
    let mut served = served.lock().unwrap();
    if served.down {
        served.failed_fetches += 1;
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    served.key_fetches += 1;
    let set = serde_json::to_value(JwkSet {
        keys: served.keys.clone(),
    })
    .unwrap();
    (
        [(
            header::CACHE_CONTROL,
            format!("public, max-age={}", served.max_age),
        )],
        json_answer(&set),
    )
        .into_response()
}

/// RFC 7662 section 2: a form with `token`, from an authenticated client.
async fn introspect(State(served): State<Shared>, headers: HeaderMap, body: String) -> Response {
    let mut served = served.lock().unwrap();
    served.introspections += 1;
    if served.down {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{CLIENT}:{SECRET}"));
    if headers
        .get(header::AUTHORIZATION)
        .unwrap()
        .to_str()
        .unwrap()
        != format!("Basic {basic}")
    {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    assert_eq!(
        headers.get(header::CONTENT_TYPE).unwrap(),
        "application/x-www-form-urlencoded"
    );
    let form: HashMap<String, String> = body
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(name, value)| (name.to_owned(), form_decoded(value)))
        .collect();
    assert_eq!(form["token_type_hint"], "access_token");
    let answer = served
        .active
        .get(&form["token"])
        .cloned()
        .unwrap_or(json!({"active": false}));
    json_answer(&answer)
}

fn json_answer(value: &Value) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

/// A form value: `+` a space, `%XX` a byte.
fn form_decoded(value: &str) -> String {
    let mut bytes = Vec::new();
    let mut rest = value.as_bytes();
    while let Some((&byte, tail)) = rest.split_first() {
        match byte {
            b'+' => bytes.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(&tail[..2]).unwrap();
                bytes.push(u8::from_str_radix(hex, 16).unwrap());
                rest = &tail[2..];
                continue;
            }
            other => bytes.push(other),
        }
        rest = tail;
    }
    String::from_utf8(bytes).unwrap()
}

/// An MCP server whose OAuth takes its keys from `issuer`, stateless.
async fn serve(
    issuer: &Issuer,
    config: impl FnOnce(OAuthConfig) -> OAuthConfig,
    options: impl FnOnce(HttpServer) -> HttpServer,
) -> Running {
    let mut tools = ToolRegistry::new();
    tools.register(LookTool).unwrap();
    tools.register(ChangeTool).unwrap();
    let oauth = config(OAuthConfig::from_issuer(issuer.url(), AUDIENCE));
    start_server(McpServer::new(tools), |http| {
        options(http.with_oauth(oauth).stateless())
    })
    .await
}

/// `tools/list` with `token`.
async fn list(server: &Running, token: &str) -> Reply {
    let response = reqwest::Client::new()
        .post(format!("http://{}/mcp", server.address))
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .header("MCP-Protocol-Version", "2025-06-18")
        .bearer_auth(token)
        .body(LIST)
        .send()
        .await
        .expect("the server answers");
    reply(response).await
}

/// `list` until its answer is `done`.
async fn until(server: &Running, token: &str, done: impl Fn(&Reply) -> bool) -> Reply {
    loop {
        let answer = list(server, token).await;
        if done(&answer) {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `list` until its status is `status`.
async fn until_status(server: &Running, token: &str, status: u16) -> Reply {
    until(server, token, |answer| answer.status == status).await
}

fn says(answer: &Reply, why: &str) -> bool {
    answer
        .challenge
        .as_deref()
        .is_some_and(|challenge| challenge.contains(&format!("error_description=\"{why}")))
}

const NO_KEY: &str = "the authorization server's key set accepts no key now";

#[tokio::test]
async fn keys_come_from_the_issuers_metadata_and_a_new_kid_has_them_fetched_again() {
    bounded(async {
        let first = SigningKey::es256("es-1");
        let issuer = Issuer::start(&[&first], 3600).await;
        let interval = OAuthConfig::MIN_KEY_REFRESH_INTERVAL;
        let server = serve(
            &issuer,
            |config| config.with_key_refresh_interval(interval),
            |http| http,
        )
        .await;
        let old = first.sign(&issuer.claims("tools:read tools:write"));
        let answer = list(&server, &old).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        assert_eq!(answer.tool_names(), ["change", "look"]);
        assert_eq!(issuer.served().key_fetches, 1);

        // The issuer rotates: its set now has a second key, which signs.
        let second = SigningKey::rs256("rs-2");
        issuer.served().keys.push(second.jwk.clone());
        let new = second.sign(&issuer.claims("tools:read"));
        // The last fetch is a refresh interval old, so the new kid may ask.
        tokio::time::sleep(interval).await;
        let answer = list(&server, &new).await;
        assert_eq!(
            answer.status, 200,
            "the new kid fetched the set: {answer:?}"
        );
        assert_eq!(answer.tool_names(), ["look"]);
        assert_eq!(issuer.served().key_fetches, 2);
        // Both keys are kept for the set's max-age: no more fetches.
        for token in [&old, &new, &old] {
            assert_eq!(list(&server, token).await.status, 200);
        }
        assert_eq!(issuer.served().key_fetches, 2);
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn made_up_kids_do_not_have_the_keys_fetched_again_within_the_interval() {
    bounded(async {
        let key = SigningKey::es256("es-1");
        let issuer = Issuer::start(&[&key], 3600).await;
        let server = serve(&issuer, |config| config, |http| http).await;
        assert_eq!(
            list(&server, &key.sign(&issuer.claims("tools:read")))
                .await
                .status,
            200
        );
        for n in 0..20 {
            let stranger = SigningKey::es256(&format!("made-up-{n}"));
            let answer = list(&server, &stranger.sign(&issuer.claims("tools:read"))).await;
            assert_eq!(answer.status, 401, "{answer:?}");
            assert!(
                says(
                    &answer,
                    "no key of the authorization server's key set has the token's kid"
                ),
                "{answer:?}"
            );
        }
        assert_eq!(
            issuer.served().key_fetches,
            1,
            "the default 30 s interval has not passed since the first fetch"
        );
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn an_issuer_briefly_down_is_served_from_the_cache_and_an_empty_set_accepts_nothing() {
    bounded(async {
        let key = SigningKey::es256("es-1");
        // max-age=0: fetched again every refresh interval.
        let issuer = Issuer::start(&[&key], 0).await;
        let server = serve(
            &issuer,
            |config| config.with_key_refresh_interval(OAuthConfig::MIN_KEY_REFRESH_INTERVAL),
            |http| http,
        )
        .await;
        let token = key.sign(&issuer.claims("tools:read"));
        assert_eq!(list(&server, &token).await.status, 200);

        issuer.served().down = true;
        // Two failures: the first was taken in before the second was asked.
        issuer.until(|served| served.failed_fetches >= 2).await;
        let answer = list(&server, &token).await;
        assert_eq!(
            answer.status, 200,
            "the last good set, within the stale limit: {answer:?}"
        );

        // Back, with no keys: nothing is accepted, at once.
        {
            let mut served = issuer.served();
            served.keys.clear();
            served.down = false;
        }
        let answer = until_status(&server, &token, 401).await;
        assert!(says(&answer, NO_KEY), "{answer:?}");
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn an_issuer_down_past_the_stale_limit_accepts_nothing_until_it_answers() {
    bounded(async {
        let key = SigningKey::es256("es-1");
        let issuer = Issuer::start(&[&key], 0).await;
        let server = serve(
            &issuer,
            |config| config.with_key_refresh_interval(OAuthConfig::MIN_KEY_REFRESH_INTERVAL),
            |http| http.with_credential_stale_limit(Duration::from_millis(300)),
        )
        .await;
        let token = key.sign(&issuer.claims("tools:read"));
        assert_eq!(list(&server, &token).await.status, 200);

        issuer.served().down = true;
        let answer = until_status(&server, &token, 401).await;
        assert!(says(&answer, NO_KEY), "{answer:?}");
        assert!(issuer.served().failed_fetches >= 1);

        issuer.served().down = false;
        let answer = until_status(&server, &token, 200).await;
        assert_eq!(answer.tool_names(), ["look"]);
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn metadata_naming_another_issuer_is_not_used() {
    bounded(async {
        let key = SigningKey::es256("es-1");
        let issuer = Issuer::start(&[&key], 3600).await;
        issuer.served().other_issuer = Some("https://evil.example.com/realms/mcp".to_owned());
        let server = serve(&issuer, |config| config, |http| http).await;
        let answer = list(&server, &key.sign(&issuer.claims("tools:read"))).await;
        assert_eq!(answer.status, 401, "{answer:?}");
        assert!(says(&answer, NO_KEY), "{answer:?}");
        assert_eq!(
            issuer.served().key_fetches,
            0,
            "its jwks_uri was not followed"
        );
        server.stop().await;
    })
    .await;
}

/// An issuer with introspection, the credentials file of the server, and
/// the server.
async fn introspecting(cache_limit: Duration) -> (Issuer, TempDir, Running) {
    let key = SigningKey::es256("es-1");
    let issuer = Issuer::start(&[&key], 3600).await;
    let dir = TempDir::new("introspection");
    let credentials = dir.join("client");
    std::fs::write(&credentials, format!("{CLIENT}:{SECRET}\n")).unwrap();
    let endpoint = format!("http://{}/introspect", issuer.address);
    let server = serve(
        &issuer,
        |config| {
            config
                .with_introspection(endpoint, &credentials)
                .with_introspection_cache_limit(cache_limit)
        },
        |http| http,
    )
    .await;
    (issuer, dir, server)
}

/// An opaque token as some issuers make them (base64, with `+`, `/` and
/// `=`, which the form must encode), active with `scope`.
fn active(issuer: &Issuer, token: &str, scope: &str) {
    let answer = json!({
        "active": true,
        "iss": issuer.url(),
        "aud": AUDIENCE,
        "sub": "alice",
        "client_id": "agent-7",
        "scope": scope,
        "exp": now() + 300,
    });
    issuer.served().active.insert(token.to_owned(), answer);
}

#[tokio::test]
async fn an_opaque_token_is_introspected_and_each_answer_kept() {
    bounded(async {
        let (issuer, _dir, server) = introspecting(Duration::from_secs(60)).await;
        let good = "op+aque/Good=";
        active(&issuer, good, "tools:read");
        let answer = list(&server, good).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        assert_eq!(answer.tool_names(), ["look"]);
        assert_eq!(list(&server, good).await.status, 200);
        assert_eq!(issuer.served().introspections, 1, "the answer was kept");

        let inactive = "op+aque/Revoked=";
        for _ in 0..2 {
            let answer = list(&server, inactive).await;
            assert_eq!(answer.status, 401, "{answer:?}");
            assert!(
                says(
                    &answer,
                    "the token is not active (its introspection says so)"
                ),
                "{answer:?}"
            );
            assert!(!answer.challenge.unwrap().contains(inactive), "not echoed");
        }
        assert_eq!(issuer.served().introspections, 2, "a refusal is kept too");

        // Active, but for another resource.
        let elsewhere = "for-another-resource";
        active(&issuer, elsewhere, "tools:read");
        issuer.served().active.get_mut(elsewhere).unwrap()["aud"] = json!("https://other.example");
        let answer = list(&server, elsewhere).await;
        assert!(
            says(&answer, "the token is not for this resource (aud)"),
            "{answer:?}"
        );

        // A JWT is checked against the keys, not introspected.
        let key = SigningKey::es256("es-2");
        let answer = list(&server, &key.sign(&issuer.claims("tools:read"))).await;
        assert_eq!(answer.status, 401);
        assert_eq!(issuer.served().introspections, 3);
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_revoked_opaque_token_is_refused_once_its_answer_is_no_longer_kept() {
    bounded(async {
        let (issuer, _dir, server) = introspecting(Duration::from_millis(200)).await;
        let token = "opaque-then-revoked";
        active(&issuer, token, "tools:read tools:write");
        let answer = list(&server, token).await;
        assert_eq!(answer.tool_names(), ["change", "look"]);
        issuer.served().active.clear();
        let answer = until_status(&server, token, 401).await;
        assert!(
            says(
                &answer,
                "the token is not active (its introspection says so)"
            ),
            "{answer:?}"
        );
        assert!(issuer.served().introspections >= 2);

        // The issuer down: refused, saying so, and that is not kept.
        active(&issuer, token, "tools:read");
        issuer.served().down = true;
        let failed = "the token could not be introspected";
        let answer = until(&server, token, |answer| says(answer, failed)).await;
        assert_eq!(answer.status, 401);
        let asked = issuer.served().introspections;
        assert!(says(&list(&server, token).await, failed));
        assert_eq!(issuer.served().introspections, asked + 1, "asked again");
        issuer.served().down = false;
        let answer = until_status(&server, token, 200).await;
        assert_eq!(answer.tool_names(), ["look"]);
        server.stop().await;
    })
    .await;
}
