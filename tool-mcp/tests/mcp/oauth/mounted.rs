//! The OAuth resource server mounted in an axum `Router`: the metadata at
//! the paths the gate names, tokens and scopes checked by the layer, as
//! `HttpServer` checks them.

use super::signer::{AUDIENCE, ISSUER, SigningKey, TempDir, claims, write_jwks};
use super::{ChangeTool, LookTool, call, reply};
use crate::support::bounded;
use axum::Router;
use tool_core::ToolRegistry;
use tool_mcp::{McpHttp, OAuthConfig};
use tower_layer::Layer;

#[tokio::test]
async fn mounted_it_serves_the_metadata_and_checks_tokens_and_scopes() {
    bounded(async {
        let dir = TempDir::new("mounted");
        let jwks = dir.join("jwks.json");
        let key = SigningKey::es256("es-1");
        write_jwks(&jwks, &[&key]);
        let mut tools = ToolRegistry::new();
        tools.register(LookTool).unwrap();
        tools.register(ChangeTool).unwrap();
        let (gate, rmcp_service) = McpHttp::new(tools)
            .with_oauth(OAuthConfig::new(ISSUER, AUDIENCE, &jwks))
            .stateless()
            .build()
            .expect("the configuration is usable");

        let paths = gate.metadata_paths();
        assert_eq!(
            paths,
            [
                "/.well-known/oauth-protected-resource",
                "/.well-known/oauth-protected-resource/mcp"
            ]
        );
        let mcp = gate.layer(rmcp_service);
        let mut app = Router::new().route_service("/mcp", mcp.clone());
        for path in &paths {
            app = app.route_service(path, mcp.clone());
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        let client = reqwest::Client::new();
        let url = |path: &str| format!("http://{address}{path}");

        let metadata = reply(client.get(url(&paths[1])).send().await.unwrap()).await;
        assert_eq!(metadata.status, 200, "{metadata:?}");
        assert_eq!(metadata.json()["resource"], AUDIENCE);

        let post = |token: Option<String>, body: String| {
            let mut request = client
                .post(url("/mcp"))
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .header("MCP-Protocol-Version", "2025-06-18")
                .body(body);
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            request.send()
        };
        let anonymous = reply(post(None, call("look")).await.unwrap()).await;
        assert_eq!(anonymous.status, 401, "{anonymous:?}");
        let challenge = anonymous.challenge.clone().unwrap_or_default();
        assert!(
            challenge.contains(
                r#"resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp""#
            ),
            "{challenge}"
        );

        let reader = key.sign(&claims("tools:read"));
        let looked = reply(post(Some(reader.clone()), call("look")).await.unwrap()).await;
        assert_eq!(looked.status, 200, "{looked:?}");
        assert_eq!(looked.json()["result"]["content"][0]["text"], "looked");
        let refused = reply(post(Some(reader), call("change")).await.unwrap()).await;
        assert_eq!(refused.status, 403, "{refused:?}");
        assert!(
            refused
                .challenge
                .as_deref()
                .is_some_and(|challenge| challenge.contains(r#"error="insufficient_scope""#)),
            "{refused:?}"
        );
    })
    .await;
}
