//! The client's OAuth (`Upstream::with_oauth`) against an authorization
//! server in the test (axum on a loopback port: RFC 8414 metadata, an
//! authorization endpoint that consents at once, a token endpoint checking
//! PKCE and `resource`, RFC 7591 registration) and our own
//! `HttpServer::with_oauth` as the resource server, checking the tokens the
//! test's authorization server signs.
//!
//! The person's step is headless, as the conformance suite's example
//! client does it: the authorization URL fetched without following
//! redirects, the `Location` given back.

// The resource server tests' signer, compiled here too: its module is
// private to theirs.
#[allow(dead_code, clippy::duplicate_mod)]
#[path = "oauth/signer.rs"]
mod signer;

use crate::support::{Running, bounded};
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde_json::{Value, json};
use signer::{SigningKey, TempDir, now, write_jwks};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;
use tool_core::{
    DynamicTool, RunOptions, ToolAnnotations, ToolCall, ToolOutput, ToolRegistry, execute_tool_call,
};
use tool_mcp::client::oauth::{AuthorizeError, InMemoryCredentialStore, OAuthClient};
use tool_mcp::client::{ClientError, McpClient, Upstream};
use tool_mcp::{HttpServer, McpServer, OAuthConfig};

const REDIRECT_URI: &str = "http://127.0.0.1:8976/callback";

/// How the test's authorization server behaves.
#[derive(Clone)]
struct Settings {
    /// `code_challenge_methods_supported`; absent when `None`.
    pkce: Option<Vec<&'static str>>,
    /// Whether it has a `registration_endpoint`.
    registration: bool,
    /// `token_endpoint_auth_methods_supported`.
    auth_methods: Vec<&'static str>,
    /// The lifetime of its access tokens, in seconds.
    expires_in: i64,
    /// A scope left out of the first grant only (a step-up gets it).
    withheld_once: Option<&'static str>,
    /// A scope never granted.
    never: Option<&'static str>,
    /// What a registration answers: the method, and the secret.
    registered: (&'static str, Option<&'static str>),
    /// `client_id_metadata_document_supported`.
    metadata_documents: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pkce: Some(vec!["S256"]),
            registration: true,
            auth_methods: vec!["none", "client_secret_basic"],
            expires_in: 300,
            withheld_once: None,
            never: None,
            registered: ("none", None),
            metadata_documents: false,
        }
    }
}

/// What the authorization server was asked.
#[derive(Default)]
struct Seen {
    registrations: usize,
    /// Each authorization request's query.
    authorizations: Vec<HashMap<String, String>>,
    /// Each token request's form and `Authorization` header.
    token_requests: Vec<(HashMap<String, String>, Option<String>)>,
    refreshes: usize,
    /// The codes given: the code challenge and the granted scope.
    codes: HashMap<String, (String, String)>,
    /// The refresh tokens given, with their scope.
    refresh_tokens: HashMap<String, String>,
}

struct Authority {
    base: String,
    /// The resource server's URL: the tokens' audience.
    resource: String,
    settings: Settings,
    key: SigningKey,
    seen: Mutex<Seen>,
}

type Shared = Arc<Authority>;

/// `key=value&...`, decoded.
fn form(text: &str) -> HashMap<String, String> {
    reqwest::Url::parse(&format!("http://form/?{text}"))
        .unwrap()
        .query_pairs()
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect()
}

fn json_answer(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

async fn metadata(State(authority): State<Shared>) -> Response {
    let base = &authority.base;
    let mut document = json!({
        "issuer": base,
        "authorization_endpoint": format!("{base}/authorize"),
        "token_endpoint": format!("{base}/token"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_methods_supported": authority.settings.auth_methods,
    });
    if let Some(methods) = &authority.settings.pkce {
        document["code_challenge_methods_supported"] = json!(methods);
    }
    if authority.settings.metadata_documents {
        document["client_id_metadata_document_supported"] = json!(true);
    }
    if authority.settings.registration {
        document["registration_endpoint"] = json!(format!("{base}/register"));
    }
    json_answer(StatusCode::OK, &document)
}

async fn authorize(State(authority): State<Shared>, uri: Uri) -> Response {
    let query = form(uri.query().unwrap_or_default());
    let mut seen = authority.seen.lock().unwrap();
    let first = seen.authorizations.is_empty();
    seen.authorizations.push(query.clone());
    let withheld = [
        authority.settings.never,
        authority.settings.withheld_once.filter(|_| first),
    ];
    let granted: Vec<&str> = query
        .get("scope")
        .map(String::as_str)
        .unwrap_or_default()
        .split_whitespace()
        .filter(|scope| !withheld.contains(&Some(*scope)))
        .collect();
    let code = format!("code-{}", seen.authorizations.len());
    seen.codes.insert(
        code.clone(),
        (
            query.get("code_challenge").cloned().unwrap_or_default(),
            granted.join(" "),
        ),
    );
    let mut back = reqwest::Url::parse(&query["redirect_uri"]).unwrap();
    back.query_pairs_mut().append_pair("code", &code);
    if let Some(state) = query.get("state") {
        back.query_pairs_mut().append_pair("state", state);
    }
    (StatusCode::FOUND, [(header::LOCATION, back.to_string())]).into_response()
}

async fn token(State(authority): State<Shared>, headers: HeaderMap, body: String) -> Response {
    let request = form(&body);
    let authorization = headers
        .get(header::AUTHORIZATION)
        .map(|value| value.to_str().unwrap().to_owned());
    let mut seen = authority.seen.lock().unwrap();
    seen.token_requests
        .push((request.clone(), authorization.clone()));
    let refuse = |why: &str| json_answer(StatusCode::BAD_REQUEST, &json!({"error": why}));
    if request.get("resource") != Some(&authority.resource) {
        return refuse("invalid_target");
    }
    let scope = match request.get("grant_type").map(String::as_str) {
        Some("authorization_code") => {
            let Some((challenge, scope)) =
                request.get("code").and_then(|code| seen.codes.remove(code))
            else {
                return refuse("invalid_grant");
            };
            let verifier = request.get("code_verifier").cloned().unwrap_or_default();
            let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, verifier.as_bytes());
            if URL_SAFE_NO_PAD.encode(digest.as_ref()) != challenge {
                return refuse("invalid_grant");
            }
            scope
        }
        Some("refresh_token") => {
            let Some(scope) = request
                .get("refresh_token")
                .and_then(|token| seen.refresh_tokens.get(token).cloned())
            else {
                return refuse("invalid_grant");
            };
            seen.refreshes += 1;
            scope
        }
        _ => return refuse("unsupported_grant_type"),
    };
    let number = seen.token_requests.len();
    let access = authority.key.sign(&json!({
        "iss": authority.base,
        "aud": authority.resource,
        "sub": "alice",
        "client_id": "the-app",
        "scope": scope,
        "iat": now(),
        // The resource server's leeway keeps a token of a second usable;
        // the client refreshes it by its `expires_in`.
        "exp": now() + authority.settings.expires_in.max(60),
    }));
    let refresh = format!("refresh-{number}");
    seen.refresh_tokens.insert(refresh.clone(), scope.clone());
    json_answer(
        StatusCode::OK,
        &json!({
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": authority.settings.expires_in,
            "refresh_token": refresh,
            "scope": scope,
        }),
    )
}

async fn register(State(authority): State<Shared>, body: String) -> Response {
    authority.seen.lock().unwrap().registrations += 1;
    let request: Value = serde_json::from_str(&body).unwrap_or_default();
    let (method, secret) = authority.settings.registered;
    let mut answer = json!({
        "client_id": "registered-1",
        "client_name": request["client_name"],
        "redirect_uris": request["redirect_uris"],
        "token_endpoint_auth_method": method,
    });
    if let Some(secret) = secret {
        answer["client_secret"] = json!(secret);
    }
    json_answer(StatusCode::CREATED, &answer)
}

/// The authorization server and the resource server (our own) of a test.
struct Servers {
    authority: Shared,
    resource: Running,
    mcp: McpServer,
    _dir: TempDir,
    stop_authority: CancellationToken,
}

impl Servers {
    async fn start(settings: Settings) -> Servers {
        let mut tools = ToolRegistry::new();
        tools.register(note(true)).unwrap();
        let mcp = McpServer::new(tools);
        // The resource server's address first: it is the tokens' audience.
        let http = HttpServer::bind(mcp.clone(), "127.0.0.1:0".parse().unwrap())
            .await
            .expect("binds");
        let resource_address = http.local_addr().unwrap();
        let resource = format!("http://127.0.0.1:{}/mcp", resource_address.port());

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let key = SigningKey::es256("as-1");
        let dir = TempDir::new("client");
        let jwks = dir.join("jwks.json");
        write_jwks(&jwks, &[&key]);
        let authority = Arc::new(Authority {
            base: base.clone(),
            resource,
            settings,
            key,
            seen: Mutex::default(),
        });
        let app = Router::new()
            .route("/.well-known/oauth-authorization-server", get(metadata))
            .route("/authorize", get(authorize))
            .route("/token", post(token))
            .route("/register", post(register))
            .with_state(Arc::clone(&authority));
        let stop_authority = CancellationToken::new();
        let stopped = stop_authority.clone();
        tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async move { stopped.cancelled().await })
                .await
        });

        // Stateless: no session, so no `tools/list_changed` when a test
        // changes `note`'s scope (the client would list again, and not see
        // it with the scopes it holds).
        let http =
            http.stateless()
                .with_oauth(OAuthConfig::new(base, authority.resource.clone(), &jwks));
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(http.run(shutdown.clone()));
        Servers {
            authority,
            resource: Running {
                address: SocketAddr::new("127.0.0.1".parse().unwrap(), resource_address.port()),
                shutdown,
                task,
            },
            mcp,
            _dir: dir,
            stop_authority,
        }
    }

    fn url(&self) -> String {
        self.authority.resource.clone()
    }

    fn seen<T>(&self, read: impl FnOnce(&Seen) -> T) -> T {
        read(&self.authority.seen.lock().unwrap())
    }

    /// The tool `note` from now on needs the write scope.
    fn note_needs_write(&self) {
        self.mcp.update_tools(|tools| {
            *tools = ToolRegistry::new();
            tools.register(note(false)).unwrap();
        });
    }

    async fn stop(self) {
        self.stop_authority.cancel();
        self.resource.stop().await;
    }
}

/// `note`: read-only (the read scope) or not (the write scope).
fn note(read_only: bool) -> DynamicTool {
    let annotations = if read_only {
        ToolAnnotations::new().read_only()
    } else {
        ToolAnnotations::new()
    };
    DynamicTool::new("note", "Takes a note", |_args, _ctx| async {
        Ok(ToolOutput::text("noted"))
    })
    .with_annotations(annotations)
}

/// The headless person, counting how often they were asked.
fn person(asked: &Arc<AtomicUsize>) -> OAuthClient {
    let asked = Arc::clone(asked);
    OAuthClient::new(REDIRECT_URI, move |url: String| {
        asked.fetch_add(1, Ordering::SeqCst);
        headless(url)
    })
}

async fn headless(url: String) -> Result<String, AuthorizeError> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let response = http.get(&url).send().await?;
    let location = response
        .headers()
        .get(reqwest::header::LOCATION)
        .ok_or("no redirect")?;
    Ok(location.to_str()?.to_owned())
}

/// The servers started with `settings`, and a client that authorized
/// with them (the person's step counted in `asked`).
async fn connected(settings: Settings) -> (Servers, Arc<AtomicUsize>, McpClient) {
    let servers = Servers::start(settings).await;
    let asked = Arc::new(AtomicUsize::new(0));
    let client = McpClient::connect(Upstream::http(servers.url()).with_oauth(person(&asked)))
        .await
        .expect("authorizes and connects");
    (servers, asked, client)
}

/// Calls `note` through a registry of `client`'s tools: its text, and
/// whether it failed.
async fn call_note(client: &McpClient) -> (String, bool) {
    let mut tools = ToolRegistry::new();
    client.register_into(&mut tools, None).unwrap();
    let call = ToolCall::new("call-1", "note", json!({}));
    let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
    let text = result
        .content
        .iter()
        .filter_map(|content| content.as_text())
        .collect();
    (text, result.is_error)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_401_runs_the_code_flow_with_pkce_and_registration() {
    bounded(async {
        let (servers, asked, client) = connected(Settings::default()).await;
        assert_eq!(call_note(&client).await, ("noted".to_owned(), false));
        assert_eq!(asked.load(Ordering::SeqCst), 1, "the person, once");

        servers.seen(|seen| {
            assert_eq!(seen.registrations, 1, "dynamic registration");
            let asked = &seen.authorizations[0];
            assert_eq!(asked["client_id"], "registered-1");
            assert_eq!(asked["response_type"], "code");
            assert_eq!(asked["code_challenge_method"], "S256");
            assert_eq!(asked["resource"], servers.url(), "RFC 8707");
            assert_eq!(asked["redirect_uri"], REDIRECT_URI);
            assert!(!asked["state"].is_empty());
            // The resource metadata's scopes_supported.
            assert_eq!(asked["scope"], "tools:read tools:write");
            let (form, authorization) = &seen.token_requests[0];
            assert_eq!(form["grant_type"], "authorization_code");
            assert_eq!(form["client_id"], "registered-1", "a public client");
            assert!(!form.contains_key("client_secret"));
            assert_eq!(*authorization, None);
        });
        client.close().await;
        servers.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pre_registered_credentials_come_first_and_authenticate_the_token_request() {
    bounded(async {
        let servers = Servers::start(Settings {
            registration: false,
            auth_methods: vec!["client_secret_basic"],
            ..Settings::default()
        })
        .await;
        let asked = Arc::new(AtomicUsize::new(0));
        let oauth = person(&asked).with_client_credentials("the-app", "s3cret");
        let client = McpClient::connect(Upstream::http(servers.url()).with_oauth(oauth))
            .await
            .expect("authorizes and connects");
        assert_eq!(call_note(&client).await, ("noted".to_owned(), false));
        servers.seen(|seen| {
            assert_eq!(seen.registrations, 0);
            assert_eq!(seen.authorizations[0]["client_id"], "the-app");
            let (form, authorization) = &seen.token_requests[0];
            let basic = format!("Basic {}", STANDARD.encode("the-app:s3cret"));
            assert_eq!(authorization.as_deref(), Some(basic.as_str()));
            assert!(!form.contains_key("client_secret"));
        });
        client.close().await;
        servers.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_metadata_document_url_is_the_client_id_where_the_server_takes_one() {
    bounded(async {
        const DOCUMENT: &str = "https://app.example.com/oauth/client.json";
        for metadata_documents in [true, false] {
            let servers = Servers::start(Settings {
                metadata_documents,
                ..Settings::default()
            })
            .await;
            let asked = Arc::new(AtomicUsize::new(0));
            let oauth = person(&asked).with_client_metadata_url(DOCUMENT);
            let client = McpClient::connect(Upstream::http(servers.url()).with_oauth(oauth))
                .await
                .expect("authorizes and connects");
            servers.seen(|seen| {
                let (id, registrations) = if metadata_documents {
                    (DOCUMENT, 0)
                } else {
                    ("registered-1", 1)
                };
                assert_eq!(seen.authorizations[0]["client_id"], id);
                assert_eq!(seen.registrations, registrations);
            });
            client.close().await;
            servers.stop().await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_request_authenticates_as_the_registration_says() {
    bounded(async {
        // The server takes both methods, and registered the client for
        // client_secret_post.
        let (servers, _, client) = connected(Settings {
            auth_methods: vec!["client_secret_basic", "client_secret_post"],
            registered: ("client_secret_post", Some("given-secret")),
            ..Settings::default()
        })
        .await;
        servers.seen(|seen| {
            assert_eq!(seen.registrations, 1);
            let (form, authorization) = &seen.token_requests[0];
            assert_eq!(form["client_id"], "registered-1");
            assert_eq!(form["client_secret"], "given-secret");
            assert_eq!(*authorization, None);
        });
        client.close().await;
        servers.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_token_is_used_by_the_next_run_without_asking() {
    bounded(async {
        let servers = Servers::start(Settings::default()).await;
        // The application's store; clones share it, as a file or a
        // keychain would be shared by two runs.
        let store = InMemoryCredentialStore::new();
        let first = Arc::new(AtomicUsize::new(0));
        let client = McpClient::connect(
            Upstream::http(servers.url())
                .with_oauth(person(&first).with_token_store(store.clone())),
        )
        .await
        .expect("authorizes and connects");
        client.close().await;
        assert_eq!(first.load(Ordering::SeqCst), 1);

        let second = Arc::new(AtomicUsize::new(0));
        let client = McpClient::connect(
            Upstream::http(servers.url()).with_oauth(person(&second).with_token_store(store)),
        )
        .await
        .expect("connects with the stored token");
        assert_eq!(call_note(&client).await, ("noted".to_owned(), false));
        assert_eq!(second.load(Ordering::SeqCst), 0, "nobody asked");
        servers.seen(|seen| {
            assert_eq!(seen.authorizations.len(), 1);
            assert_eq!(seen.registrations, 1);
        });
        client.close().await;
        servers.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_token_is_refreshed_without_asking_the_person_again() {
    bounded(async {
        let (servers, asked, client) = connected(Settings {
            expires_in: 1,
            ..Settings::default()
        })
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        assert_eq!(call_note(&client).await, ("noted".to_owned(), false));
        assert_eq!(asked.load(Ordering::SeqCst), 1, "the person, once");
        servers.seen(|seen| {
            assert!(seen.refreshes >= 1, "refreshed");
            let (form, _) = seen.token_requests.last().unwrap();
            assert_eq!(form["grant_type"], "refresh_token");
            assert_eq!(form["resource"], servers.url());
        });
        client.close().await;
        servers.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_403_for_scope_steps_up_with_the_union_of_scopes() {
    bounded(async {
        let (servers, asked, client) = connected(Settings {
            withheld_once: Some("tools:write"),
            ..Settings::default()
        })
        .await;
        servers.note_needs_write();
        assert_eq!(call_note(&client).await, ("noted".to_owned(), false));
        assert_eq!(asked.load(Ordering::SeqCst), 2, "asked again for more");
        servers.seen(|seen| {
            assert_eq!(seen.authorizations.len(), 2);
            let wider: Vec<&str> = seen.authorizations[1]["scope"].split(' ').collect();
            assert!(
                wider.contains(&"tools:read") && wider.contains(&"tools:write"),
                "{wider:?}"
            );
            assert_eq!(seen.registrations, 1, "the same client");
        });
        client.close().await;
        servers.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn step_ups_stop_at_the_limit() {
    bounded(async {
        let (servers, asked, client) = connected(Settings {
            never: Some("tools:write"),
            ..Settings::default()
        })
        .await;
        servers.note_needs_write();
        let (text, failed) = call_note(&client).await;
        assert!(failed, "{text}");
        assert!(
            text.contains("still refuses for lack of scope after 2 step-up authorizations"),
            "{text}"
        );
        // The first authorization and two step-ups.
        assert_eq!(asked.load(Ordering::SeqCst), 3, "{text}");
        client.close().await;
        servers.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_authorization_server_without_s256_is_refused() {
    bounded(async {
        for pkce in [Some(vec!["plain"]), None] {
            let servers = Servers::start(Settings {
                pkce: pkce.clone(),
                ..Settings::default()
            })
            .await;
            let asked = Arc::new(AtomicUsize::new(0));
            let refused =
                McpClient::connect(Upstream::http(servers.url()).with_oauth(person(&asked))).await;
            let Err(ClientError::Connect(message)) = refused else {
                panic!("connected without S256 ({pkce:?})");
            };
            assert!(
                message.contains("code_challenge_methods_supported"),
                "{message}"
            );
            assert!(message.contains("S256"), "{message}");
            assert_eq!(asked.load(Ordering::SeqCst), 0, "nobody asked");
            servers.seen(|seen| {
                assert_eq!(seen.registrations, 0);
                assert!(seen.authorizations.is_empty());
            });
            servers.stop().await;
        }
    })
    .await;
}

#[tokio::test]
async fn plain_http_is_refused_but_on_loopback() {
    let asked = Arc::new(AtomicUsize::new(0));
    let refused =
        McpClient::connect(Upstream::http("http://mcp.example.com/mcp").with_oauth(person(&asked)))
            .await;
    let Err(ClientError::Connect(message)) = refused else {
        panic!("connected over plain http");
    };
    assert!(
        message.contains("http://mcp.example.com/mcp is plain http"),
        "{message}"
    );
    assert_eq!(asked.load(Ordering::SeqCst), 0);
}
