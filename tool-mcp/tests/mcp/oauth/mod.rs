//! MCP authorization: the server as an OAuth resource server, met by a
//! real HTTP client (reqwest) on a loopback port, with tokens signed here
//! by keys made for each test ([`signer`]).
//!
//! - [`tokens`]: the metadata, the 401 challenges, each reason a token is
//!   refused, a key set rotated without a restart.
//! - [`scopes`]: `tools/list` filtered, 403 `insufficient_scope`, the
//!   caller in the before hook, the static token beside OAuth and read
//!   again from its file, `tool_search` finding only what a token may call.
//! - [`sessions`]: a session used only by the caller that opened it.
//! - [`approval`]: a 2026-07-28 approval's `requestState` is the asked
//!   subject's alone.
//! - [`audit`]: the audit log's lines, and the client address in them.
//! - [`cors`]: the metadata readable from any origin.
//! - [`issuer`]: keys fetched from the issuer's metadata, rotated, kept
//!   while it is briefly down; opaque tokens introspected.
//! - [`mounted`]: the same checks as a tower layer in an axum `Router`.

mod approval;
mod audit;
mod cors;
mod issuer;
mod mounted;
mod scopes;
mod sessions;
mod signer;
mod tokens;

use crate::support::{Running, start_server};
use serde_json::Value;
use signer::{AUDIENCE, ISSUER, SigningKey, TempDir, write_jwks};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tool_core::executor::{Caller, HookDecision};
use tool_core::{RunOptions, ToolRegistry, tool};
use tool_mcp::{HttpServer, McpServer, OAuthConfig};

/// Show what is there
#[tool(read_only)]
pub(crate) async fn look() -> String {
    "looked".to_owned()
}

/// Change something
#[tool(destructive)]
pub(crate) async fn change() -> String {
    "changed".to_owned()
}

/// A server with OAuth: two signing keys in its JWKS (one ES256, one
/// RS256), the callers its before hook saw.
pub(crate) struct Fixture {
    pub _dir: TempDir,
    pub jwks: PathBuf,
    pub es: SigningKey,
    pub rs: SigningKey,
    pub server: Running,
    /// The served server: its tools change through it while it serves.
    pub mcp: McpServer,
    pub callers: Arc<Mutex<Vec<Option<Caller>>>>,
    pub client: reqwest::Client,
}

/// An answer, read whole.
#[derive(Debug)]
pub(crate) struct Reply {
    pub status: u16,
    pub challenge: Option<String>,
    pub body: String,
}

impl Reply {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("not JSON: {self:?}"))
    }

    /// The names `tools/list` answered.
    pub(crate) fn tool_names(&self) -> Vec<String> {
        let json = self.json();
        let tools = json["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("no tools: {self:?}"));
        tools
            .iter()
            .map(|tool| tool["name"].as_str().unwrap().to_owned())
            .collect()
    }
}

pub(crate) const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

pub(crate) fn call(name: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"{name}","arguments":{{}}}}}}"#
    )
}

impl Fixture {
    /// Stateless, with `config` (the default OAuth configuration given)
    /// and `options` on top.
    pub(crate) async fn start(
        config: impl FnOnce(OAuthConfig) -> OAuthConfig,
        options: impl FnOnce(HttpServer) -> HttpServer,
    ) -> Fixture {
        let mut tools = ToolRegistry::new();
        tools.register(LookTool).unwrap();
        tools.register(ChangeTool).unwrap();
        Fixture::serving(tools, config, options).await
    }

    /// [`start`](Self::start) with other tools than `look` and `change`.
    pub(crate) async fn serving(
        tools: ToolRegistry,
        config: impl FnOnce(OAuthConfig) -> OAuthConfig,
        options: impl FnOnce(HttpServer) -> HttpServer,
    ) -> Fixture {
        let dir = TempDir::new("fixture");
        let jwks = dir.join("jwks.json");
        let es = SigningKey::es256("es-1");
        let rs = SigningKey::rs256("rs-1");
        write_jwks(&jwks, &[&es, &rs]);
        let callers = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&callers);
        let options_of_calls = RunOptions::new().with_before_hook(move |call| {
            seen.lock().unwrap().push(call.caller.as_deref().cloned());
            async { Ok(HookDecision::Allow) }
        });
        let mcp = McpServer::new(tools).with_call_options(options_of_calls);
        let oauth = config(OAuthConfig::new(ISSUER, AUDIENCE, &jwks));
        let server = start_server(mcp.clone(), |http| options(http.with_oauth(oauth))).await;
        Fixture {
            _dir: dir,
            jwks,
            es,
            rs,
            server,
            mcp,
            callers,
            client: reqwest::Client::new(),
        }
    }

    pub(crate) async fn default() -> Fixture {
        Fixture::start(|config| config, HttpServer::stateless).await
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.server.address)
    }

    /// POSTs `body` to `/mcp` (no session: the legacy revision's header),
    /// with `authorization` as the `Authorization` header.
    pub(crate) async fn post(&self, authorization: Option<&str>, body: &str) -> Reply {
        self.post_to("/mcp", authorization, body, &[]).await
    }

    /// POSTs with a bearer `token`.
    pub(crate) async fn with_token(&self, token: &str, body: &str) -> Reply {
        self.post(Some(&format!("Bearer {token}")), body).await
    }

    pub(crate) async fn post_to(
        &self,
        path: &str,
        authorization: Option<&str>,
        body: &str,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut request = self
            .client
            .post(self.url(path))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", "2025-06-18")
            .body(body.to_owned());
        if let Some(authorization) = authorization {
            request = request.header("Authorization", authorization);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        reply(request.send().await.expect("the server answers")).await
    }

    pub(crate) async fn get(&self, path: &str, host: Option<&str>) -> Reply {
        let mut request = self.client.get(self.url(path));
        if let Some(host) = host {
            request = request.header("Host", host);
        }
        reply(request.send().await.expect("the server answers")).await
    }
}

pub(crate) async fn reply(response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|value| value.to_str().unwrap().to_owned());
    let body = response.text().await.unwrap();
    Reply {
        status,
        challenge,
        body,
    }
}
