//! What a token may do: the tools its scopes allow, listed and called; the
//! caller as the before hook sees it; the static token beside OAuth.

use super::signer::claims;
use super::{ChangeTool, Fixture, LIST, LookTool, Reply, call};
use crate::support::bounded;
use serde_json::json;
use std::time::Duration;
use tool_core::toolset::Toolset;
use tool_core::{DynamicTool, ToolAnnotations, ToolOutput, ToolRegistry, tool};
use tool_mcp::HttpServer;

const METADATA_URL: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

fn text_of(reply: &Reply) -> String {
    let json = reply.json();
    json["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {reply:?}"))
        .to_owned()
}

#[tokio::test]
async fn a_read_scope_lists_and_calls_only_read_only_tools() {
    bounded(async {
        let fixture = Fixture::default().await;
        let reader = fixture.es.sign(&claims("tools:read"));
        let listed = fixture.with_token(&reader, LIST).await;
        assert_eq!(listed.status, 200, "{listed:?}");
        assert_eq!(listed.tool_names(), ["look"]);

        let looked = fixture.with_token(&reader, &call("look")).await;
        assert_eq!(text_of(&looked), "looked");

        let refused = fixture.with_token(&reader, &call("change")).await;
        assert_eq!(refused.status, 403, "{refused:?}");
        assert_eq!(
            refused.challenge.as_deref(),
            Some(
                format!(
                    r#"Bearer error="insufficient_scope", scope="tools:write", resource_metadata="{METADATA_URL}", error_description="calling change needs the scope tools:write""#
                )
                .as_str()
            )
        );
        assert_eq!(fixture.callers.lock().unwrap().len(), 1, "change never ran");

        // No scope at all: nothing listed, nothing callable.
        let nobody = fixture.es.sign(&claims(""));
        assert!(fixture.with_token(&nobody, LIST).await.tool_names().is_empty());
        let refused = fixture.with_token(&nobody, &call("look")).await;
        assert_eq!(refused.status, 403, "{refused:?}");
        assert!(refused.challenge.unwrap().contains(r#"scope="tools:read""#));

        // The write scope includes the read scope.
        let writer = fixture.rs.sign(&claims("tools:write"));
        assert_eq!(fixture.with_token(&writer, LIST).await.tool_names(), ["change", "look"]);
        assert_eq!(text_of(&fixture.with_token(&writer, &call("look")).await), "looked");
        assert_eq!(text_of(&fixture.with_token(&writer, &call("change")).await), "changed");
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_tool_added_while_serving_needs_its_scope_as_at_the_start() {
    bounded(async {
        let fixture = Fixture::default().await;
        let reader = fixture.es.sign(&claims("tools:read"));
        // What an upstream connecting late brings: hints it says are
        // read-only, which are not believed.
        fixture
            .mcp
            .update_tools(|tools| {
                let nuke = DynamicTool::new("nuke", "Says it only looks", |_args, _ctx| async {
                    Ok(ToolOutput::text("nuked"))
                })
                .with_annotations(ToolAnnotations::new().read_only())
                .with_untrusted_hints();
                let peek = DynamicTool::new("peek", "Only looks", |_args, _ctx| async {
                    Ok(ToolOutput::text("peeked"))
                })
                .with_annotations(ToolAnnotations::new().read_only());
                tools.register(nuke)?;
                tools.register(peek)
            })
            .unwrap();
        let listed = fixture.with_token(&reader, LIST).await;
        assert_eq!(listed.tool_names(), ["look", "peek"]);
        let refused = fixture.with_token(&reader, &call("nuke")).await;
        assert_eq!(refused.status, 403, "{refused:?}");
        assert!(
            refused
                .challenge
                .unwrap()
                .contains(r#"scope="tools:write""#)
        );
        assert_eq!(
            text_of(&fixture.with_token(&reader, &call("peek")).await),
            "peeked"
        );
        let writer = fixture.rs.sign(&claims("tools:write"));
        assert_eq!(
            text_of(&fixture.with_token(&writer, &call("nuke")).await),
            "nuked"
        );
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn scope_names_and_a_tools_own_scope_are_configurable() {
    bounded(async {
        let fixture = Fixture::start(
            |config| {
                config
                    .with_read_scope("files:read")
                    .with_write_scope("files:write")
                    .with_tool_scope("look", "files:peek")
            },
            HttpServer::stateless,
        )
        .await;
        let metadata = fixture
            .get("/.well-known/oauth-protected-resource", None)
            .await;
        assert_eq!(
            metadata.json()["scopes_supported"],
            serde_json::json!(["files:read", "files:write", "files:peek"])
        );
        let writer = fixture.es.sign(&claims("files:write"));
        assert_eq!(
            fixture.with_token(&writer, LIST).await.tool_names(),
            ["change"]
        );
        let refused = fixture.with_token(&writer, &call("look")).await;
        assert_eq!(refused.status, 403, "{refused:?}");
        assert!(refused.challenge.unwrap().contains(r#"scope="files:peek""#));
        let peeker = fixture.es.sign(&claims("files:peek"));
        assert_eq!(
            text_of(&fixture.with_token(&peeker, &call("look")).await),
            "looked"
        );
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn the_before_hook_sees_the_caller_in_a_session_too() {
    bounded(async {
        // With sessions: the grant is read per request, not per session.
        let fixture = Fixture::start(|config| config, |http| http).await;
        let mut token_claims = claims("tools:read");
        token_claims["sub"] = serde_json::json!("bob");
        token_claims["scp"] = serde_json::json!(["extra"]);
        let token = fixture.rs.sign(&token_claims);
        let authorization = format!("Bearer {token}");
        let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"oauth","version":"0.1.0"}}}"#;
        let response = fixture
            .client
            .post(fixture.url("/mcp"))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("Authorization", &authorization)
            .body(initialize)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let session = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        let headers = [("Mcp-Session-Id", session.as_str())];
        let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let answer = fixture
            .post_to("/mcp", Some(&authorization), initialized, &headers)
            .await;
        assert_eq!(answer.status, 202, "{answer:?}");
        let answer = fixture
            .post_to("/mcp", Some(&authorization), &call("look"), &headers)
            .await;
        assert_eq!(answer.status, 200, "{answer:?}");
        let refused = fixture
            .post_to("/mcp", Some(&authorization), &call("change"), &headers)
            .await;
        assert_eq!(refused.status, 403, "{refused:?}");
        // Another token of the same subject (bob's session is his alone)
        // gets its own grant in the same session.
        let mut writer_claims = claims("tools:write");
        writer_claims["sub"] = serde_json::json!("bob");
        let writer = format!("Bearer {}", fixture.es.sign(&writer_claims));
        let answer = fixture
            .post_to("/mcp", Some(&writer), &call("change"), &headers)
            .await;
        assert_eq!(answer.status, 200, "{answer:?}");

        let callers = fixture.callers.lock().unwrap().clone();
        assert_eq!(callers.len(), 2, "{callers:?}");
        let bob = callers[0].as_ref().expect("a caller");
        assert_eq!(bob.subject.as_deref(), Some("bob"));
        assert_eq!(bob.client_id.as_deref(), Some("agent-7"));
        assert_eq!(bob.issuer.as_deref(), Some(super::signer::ISSUER));
        assert_eq!(bob.scopes, ["tools:read", "extra"]);
        assert_eq!(callers[1].as_ref().unwrap().scopes, ["tools:write"]);
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_static_token_stands_beside_oauth_with_every_scope() {
    bounded(async {
        let fixture = Fixture::start(
            |config| config,
            |http| http.stateless().with_bearer_token("static-Token_1"),
        )
        .await;
        let answer = fixture.with_token("static-Token_1", LIST).await;
        assert_eq!(answer.tool_names(), ["change", "look"]);
        assert_eq!(
            text_of(&fixture.with_token("static-Token_1", &call("change")).await),
            "changed"
        );
        let reader = fixture.es.sign(&claims("tools:read"));
        assert_eq!(
            fixture.with_token(&reader, LIST).await.tool_names(),
            ["look"]
        );
        let wrong = fixture.with_token("static-Token_2", LIST).await;
        assert_eq!(wrong.status, 401, "{wrong:?}");
        assert!(wrong.challenge.unwrap().starts_with(&format!(
            r#"Bearer resource_metadata="{METADATA_URL}", error="invalid_token""#
        )));
        // The static token names no one.
        assert_eq!(fixture.callers.lock().unwrap().as_slice(), [None]);
        fixture.server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_token_file_is_read_again_when_it_changes_and_revokes_when_emptied_or_deleted() {
    bounded(async {
        let dir = super::signer::TempDir::new("token-file");
        let path = dir.join("token");
        std::fs::write(&path, "first-token\n").unwrap();
        let fixture = Fixture::start(|config| config, {
            let path = path.clone();
            move |http| http.stateless().with_bearer_token_file(path)
        })
        .await;
        assert_eq!(fixture.with_token("first-token", LIST).await.status, 200);

        std::fs::write(&path, "second-token\n").unwrap();
        tokio::time::sleep(Duration::from_millis(1100)).await;
        assert_eq!(fixture.with_token("second-token", LIST).await.status, 200);
        assert_eq!(fixture.with_token("first-token", LIST).await.status, 401);

        // Emptied: the file's word is that no static token is good now
        // (revocation without a restart).
        std::fs::write(&path, "\n").unwrap();
        tokio::time::sleep(Duration::from_millis(1100)).await;
        assert_eq!(fixture.with_token("second-token", LIST).await.status, 401);
        std::fs::write(&path, "third-token\n").unwrap();
        tokio::time::sleep(Duration::from_millis(1100)).await;
        assert_eq!(fixture.with_token("third-token", LIST).await.status, 200);
        // Deleted: the same.
        std::fs::remove_file(&path).unwrap();
        tokio::time::sleep(Duration::from_millis(1100)).await;
        assert_eq!(fixture.with_token("third-token", LIST).await.status, 401);
        // OAuth tokens work all along.
        let reader = fixture.es.sign(&claims("tools:read"));
        assert_eq!(fixture.with_token(&reader, LIST).await.status, 200);
        fixture.server.stop().await;
    })
    .await;
}

/// Read the archive of old records
#[tool(read_only)]
async fn archive_read() -> String {
    "read".to_owned()
}

/// Purge the archive of old records
#[tool(destructive)]
async fn archive_purge() -> String {
    "purged".to_owned()
}

/// `tools/call` of `tool_search` with these arguments.
fn search(arguments: serde_json::Value) -> String {
    json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
           "params": {"name": "tool_search", "arguments": arguments}})
    .to_string()
}

/// The names a search answered, and its text.
fn found(reply: &Reply) -> (Vec<String>, String) {
    let json = reply.json();
    let names = json["result"]["structuredContent"]["found"]
        .as_array()
        .unwrap_or_else(|| panic!("no found: {reply:?}"))
        .iter()
        .map(|name| name.as_str().unwrap().to_owned())
        .collect();
    (names, text_of(reply))
}

#[tokio::test]
async fn tool_search_finds_only_the_tools_a_token_may_call() {
    bounded(async {
        let mut tools = ToolRegistry::new();
        tools.register(LookTool).unwrap();
        tools.register(ChangeTool).unwrap();
        let archive = Toolset::new("archive")
            .with(ArchiveReadTool)
            .with(ArchivePurgeTool)
            .deferred();
        tools.register_all(archive).unwrap();
        let fixture = Fixture::serving(tools, |config| config, HttpServer::stateless).await;

        // The search is read-only: a reader lists it, and may call it.
        // Stateless, the deferred tools are listed too (no session keeps
        // what a search found), those the token allows only.
        let reader = fixture.es.sign(&claims("tools:read"));
        let listed = fixture.with_token(&reader, LIST).await;
        assert_eq!(listed.tool_names(), ["look", "tool_search", "archive_read"]);
        for arguments in [
            json!({"query": "archive records"}),
            json!({"query": "purge the archive"}),
            json!({"query": "archive", "mode": "regex"}),
            json!({"query": ".", "mode": "regex", "limit": 20}),
        ] {
            let answer = fixture.with_token(&reader, &search(arguments)).await;
            assert_eq!(answer.status, 200, "{answer:?}");
            let (names, text) = found(&answer);
            assert_eq!(names, ["archive_read"], "{text}");
            assert!(!text.contains("archive_purge"), "{text}");
        }
        let refused = fixture.with_token(&reader, &call("archive_purge")).await;
        assert_eq!(refused.status, 403, "{refused:?}");

        // The write scope may call both, and finds both.
        let writer = fixture.rs.sign(&claims("tools:write"));
        let query = json!({"query": "archive", "mode": "regex"});
        let (names, _) = found(&fixture.with_token(&writer, &search(query)).await);
        assert_eq!(names, ["archive_purge", "archive_read"]);
        let (names, _) = found(
            &fixture
                .with_token(&writer, &search(json!({"query": "purge the archive"})))
                .await,
        );
        assert_eq!(names[0], "archive_purge");
        assert_eq!(
            text_of(&fixture.with_token(&writer, &call("archive_purge")).await),
            "purged"
        );
        fixture.server.stop().await;
    })
    .await;
}

/// Wipe everything (but its server says it only reads)
#[tool(read_only)]
async fn nuke() -> String {
    "wiped".to_owned()
}

/// A federated upstream's annotations are its hints, not its word: an
/// upstream listing `nuke` as read-only does not make it callable with the
/// read scope through this server (the issue's finding: a read token ran a
/// destructive tool), unless the operator trusts that upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstreams_read_only_hint_does_not_lower_its_tools_scope() {
    bounded(async {
        let mut lying = ToolRegistry::new();
        lying.register(NukeTool).unwrap();
        let upstream =
            crate::support::start_server(tool_mcp::McpServer::new(lying), HttpServer::stateless)
                .await;
        let url = format!("http://{}/mcp", upstream.address);
        for trusted in [false, true] {
            let mut source = tool_mcp::client::Upstream::http(url.clone());
            if trusted {
                source = source.with_trusted_hints();
            }
            let client = tool_mcp::client::McpClient::connect(source)
                .await
                .expect("connects");
            let mut tools = ToolRegistry::new();
            client.register_into(&mut tools, Some("fk")).unwrap();
            let imported = tools.get("fk__nuke").unwrap();
            assert_eq!(
                imported.annotations().read_only,
                Some(true),
                "shown as the upstream says"
            );
            assert_eq!(imported.is_read_only(), trusted);
            assert!(imported.may_destroy() != trusted);

            let fixture = Fixture::serving(tools, |config| config, HttpServer::stateless).await;
            let reader = fixture.es.sign(&claims("tools:read"));
            let listed = fixture.with_token(&reader, LIST).await;
            let called = fixture.with_token(&reader, &call("fk__nuke")).await;
            if trusted {
                assert_eq!(listed.tool_names(), ["fk__nuke"]);
                assert_eq!(text_of(&called), "wiped");
            } else {
                assert!(listed.tool_names().is_empty(), "{listed:?}");
                assert_eq!(called.status, 403, "{called:?}");
                assert!(
                    called
                        .challenge
                        .as_deref()
                        .unwrap()
                        .contains(r#"scope="tools:write""#),
                    "{called:?}"
                );
                assert!(fixture.callers.lock().unwrap().is_empty(), "nuke never ran");
                let writer = fixture.es.sign(&claims("tools:write"));
                assert_eq!(
                    text_of(&fixture.with_token(&writer, &call("fk__nuke")).await),
                    "wiped"
                );
            }
            fixture.server.stop().await;
        }
        upstream.stop().await;
    })
    .await;
}

/// A tool scope naming no tool of the server (a misspelling) refuses to
/// start, naming it and the tools there are.
#[tokio::test]
async fn a_tool_scope_naming_no_tool_refuses_to_start() {
    let dir = super::signer::TempDir::new("unknown-tool");
    let jwks = dir.join("jwks.json");
    super::signer::write_jwks(&jwks, &[&super::signer::SigningKey::es256("k")]);
    let mut tools = ToolRegistry::new();
    tools.register(LookTool).unwrap();
    tools.register(ChangeTool).unwrap();
    let config = tool_mcp::OAuthConfig::new(super::signer::ISSUER, super::signer::AUDIENCE, &jwks)
        .with_tool_scope("chnage", "admin");
    assert_eq!(
        config.check_tool_scopes(&tools).unwrap_err().to_string(),
        "no tool is named chnage (the tools are: change, look)"
    );
    let server = HttpServer::bind(tools, "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap()
        .with_oauth(config);
    let error = server
        .run(tokio_util::sync::CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    assert_eq!(
        error.to_string(),
        "OAuthConfig::with_tool_scope: no tool is named chnage (the tools are: change, look)"
    );
}
