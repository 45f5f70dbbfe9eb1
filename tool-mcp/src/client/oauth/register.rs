//! Dynamic client registration (RFC 7591), ours rather than rmcp's
//! `AuthorizationManager::register_client`: rmcp keeps the `client_id` and
//! `client_secret` of the answer and drops its `token_endpoint_auth_method`,
//! the method the server registered the client with (RFC 7591 section
//! 3.2.1: the server's answer holds "all registered metadata about the
//! client"), and then picks the token endpoint's authentication from the
//! server's metadata alone. A server that lists both `client_secret_basic`
//! and `client_secret_post` but registered `client_secret_post` would
//! refuse rmcp's Basic. Here the registered method is what the token
//! request uses.

use super::guard::Guarded;
use serde_json::{Value, json};

/// What the registration gave.
pub(super) struct Registered {
    pub client_id: String,
    /// None for a public client (or a registration as `none`).
    pub client_secret: Option<String>,
    /// `token_endpoint_auth_method` as registered, when the answer says.
    pub method: Option<String>,
}

/// Registers a client named `name` with `redirect_uri` at `endpoint`,
/// asking for `scopes`, as a public client (`none`: there is nowhere safe
/// to keep a secret on a person's machine); the server may still register
/// it otherwise, and its answer decides.
pub(super) async fn register(
    http: &Guarded,
    endpoint: &str,
    name: &str,
    redirect_uri: &str,
    scopes: &[String],
) -> Result<Registered, String> {
    let mut request = json!({
        "client_name": name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    });
    if !scopes.is_empty() {
        request["scope"] = json!(scopes.join(" "));
    }
    let place = format!("the registration endpoint {endpoint}");
    let (status, body) = http.post_json(endpoint, &request).await?;
    if !status.is_success() {
        let said = String::from_utf8_lossy(&body);
        let said: String = said.chars().take(300).collect();
        return Err(format!(
            "{place} refused to register the client: HTTP {status}: {said}"
        ));
    }
    let answer: Value = serde_json::from_slice(&body)
        .map_err(|error| format!("{place} answered something that is not JSON: {error}"))?;
    let Some(client_id) = answer["client_id"].as_str().filter(|id| !id.is_empty()) else {
        return Err(format!("{place} answered without a client_id"));
    };
    let method = answer["token_endpoint_auth_method"]
        .as_str()
        .map(str::to_owned);
    // An empty secret is no secret (some servers send one for public
    // clients); and a client registered as `none` sends none.
    let client_secret = answer["client_secret"]
        .as_str()
        .filter(|secret| !secret.is_empty() && method.as_deref() != Some("none"))
        .map(str::to_owned);
    Ok(Registered {
        client_id: client_id.to_owned(),
        client_secret,
        method,
    })
}
