//! The audit log (target `tool_mcp::audit`, at info): a refused token with
//! the `kid` and `iss` it claims and never the token, a session opened and
//! closed by its caller, each `tools/call` with its caller, tool, outcome,
//! duration and approval decision, and a refusal of scope at the gate; the
//! client's address is the one a trusted proxy names in `X-Forwarded-For`,
//! and the connection's when the proxy is not trusted.

use super::approval::{WipeTool, accepted, connect};
use super::signer::{SigningKey, claims};
use super::{ChangeTool, Fixture, LookTool, call};
use crate::support::{LOGGED, Logs, bounded};
use rmcp::model::{CallToolRequestParams, CallToolResponse};
use tool_core::ToolRegistry;
use tool_mcp::HttpServer;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"audit","version":"0.1.0"}}}"#;

/// The one audit line holding every piece of `wanted`.
fn line_with<'a>(lines: &'a [String], wanted: &[&str]) -> &'a str {
    let found: Vec<&String> = lines
        .iter()
        .filter(|line| wanted.iter().all(|piece| line.contains(piece)))
        .collect();
    assert_eq!(found.len(), 1, "one line with {wanted:?} in {lines:#?}");
    found[0]
}

#[tokio::test]
async fn each_refusal_session_and_call_is_one_line_naming_who_and_from_where() {
    let _alone = LOGGED.lock().await;
    let logs = Logs::capture(tracing::Level::INFO);
    bounded(async {
        let fixture = Fixture::start(
            |config| config,
            |http| http.with_trusted_proxies(["127.0.0.1"]),
        )
        .await;
        let behind = [("X-Forwarded-For", "198.51.100.4, 203.0.113.9")];

        // A token signed by a key the server does not have.
        let retired = SigningKey::es256("retired-key").sign(&claims("tools:read"));
        let refused = fixture
            .post_to(
                "/mcp",
                Some(&format!("Bearer {retired}")),
                INITIALIZE,
                &behind,
            )
            .await;
        assert_eq!(refused.status, 401, "{refused:?}");

        let alice = fixture.es.sign(&claims("tools:read"));
        let bearer = format!("Bearer {alice}");
        let opened = fixture
            .client
            .post(fixture.url("/mcp"))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("Authorization", &bearer)
            .header(behind[0].0, behind[0].1)
            .body(INITIALIZE)
            .send()
            .await
            .unwrap();
        assert_eq!(opened.status(), 200);
        let session = opened.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let in_session = [behind[0], ("Mcp-Session-Id", session.as_str())];
        let looked = fixture
            .post_to("/mcp", Some(&bearer), &call("look"), &in_session)
            .await;
        assert_eq!(looked.status, 200, "{looked:?}");
        // `change` needs the write scope: refused at the gate, before rmcp.
        let changed = fixture
            .post_to("/mcp", Some(&bearer), &call("change"), &in_session)
            .await;
        assert_eq!(changed.status, 403, "{changed:?}");
        let closed = fixture
            .client
            .delete(fixture.url("/mcp"))
            .header("Authorization", &bearer)
            .header("Mcp-Session-Id", &session)
            .header(behind[0].0, behind[0].1)
            .send()
            .await
            .unwrap();
        assert_eq!(closed.status(), 200);
        fixture.server.stop().await;

        let lines = logs.audit();
        let refusal = line_with(&lines, &["credential_refused"]);
        for piece in [
            "client.address=203.0.113.9",
            "kid=\"retired-key\"",
            "iss=\"https://auth.example.com/realms/mcp\"",
            "reason=",
        ] {
            assert!(refusal.contains(piece), "{piece} in {refusal}");
        }
        let alice_key = r#"caller=["sub","https://auth.example.com/realms/mcp","alice"]"#;
        for event in ["session_opened", "session_closed"] {
            let line = line_with(&lines, &[event]);
            assert!(line.contains(&session), "{line}");
            assert!(line.contains(alice_key), "{line}");
            assert!(line.contains("client.address=203.0.113.9"), "{line}");
        }
        assert!(line_with(&lines, &["session_closed"]).contains("closed_by=\"client\""));
        let look = line_with(&lines, &["tool_call", "gen_ai.tool.name=\"look\""]);
        for piece in [
            "outcome=\"ok\"",
            alice_key,
            "client.address=203.0.113.9",
            "duration_ms=",
        ] {
            assert!(look.contains(piece), "{piece} in {look}");
        }
        assert!(!look.contains("approval="), "no approval was asked: {look}");
        let change = line_with(&lines, &["tool_call", "gen_ai.tool.name=\"change\""]);
        assert!(change.contains("outcome=\"refused\""), "{change}");
        let text = logs.text();
        assert!(
            !text.contains(&retired) && !text.contains(&alice),
            "a token in the logs"
        );
    })
    .await;
}

#[tokio::test]
async fn an_untrusted_peer_cannot_name_the_client_address() {
    let _alone = LOGGED.lock().await;
    let logs = Logs::capture(tracing::Level::INFO);
    bounded(async {
        let fixture = Fixture::start(|config| config, HttpServer::stateless).await;
        let forged = fixture
            .post_to(
                "/mcp",
                Some("Bearer not-a-jwt"),
                &call("look"),
                &[("X-Forwarded-For", "203.0.113.9")],
            )
            .await;
        assert_eq!(forged.status, 401);
        fixture.server.stop().await;
        let lines = logs.audit();
        let refusal = line_with(&lines, &["credential_refused"]);
        assert!(refusal.contains("client.address=127.0.0.1"), "{refusal}");
        assert!(
            refusal.contains("reason=\"the token is not a JWT\""),
            "{refusal}"
        );
    })
    .await;
}

#[tokio::test]
async fn an_approval_asked_then_accepted_is_in_the_calls_lines() {
    let _alone = LOGGED.lock().await;
    let logs = Logs::capture(tracing::Level::INFO);
    bounded(async {
        let mut tools = ToolRegistry::new();
        tools.register(WipeTool).unwrap();
        tools.register(LookTool).unwrap();
        tools.register(ChangeTool).unwrap();
        let fixture = Fixture::serving(tools, |config| config, HttpServer::stateless).await;
        let alice = fixture.es.sign(&claims("tools:write"));
        let client = connect(&fixture, &alice).await;
        let state = match client
            .call_tool_once(CallToolRequestParams::new("wipe"))
            .await
        {
            Ok(CallToolResponse::InputRequired(asked)) => asked.request_state.unwrap(),
            other => panic!("asked, got {other:?}"),
        };
        let ran = client.call_tool_once(accepted(&state)).await;
        assert!(matches!(ran, Ok(CallToolResponse::Complete(_))), "{ran:?}");
        client.cancel().await.unwrap();
        fixture.server.stop().await;

        let lines = logs.audit();
        let wipes: Vec<&String> = lines
            .iter()
            .filter(|line| line.contains("gen_ai.tool.name=\"wipe\""))
            .collect();
        assert_eq!(wipes.len(), 2, "{lines:#?}");
        assert!(
            wipes[0].contains("outcome=\"input_required\""),
            "{}",
            wipes[0]
        );
        assert!(wipes[1].contains("outcome=\"ok\""), "{}", wipes[1]);
        assert!(wipes[1].contains("approval=\"approved\""), "{}", wipes[1]);
    })
    .await;
}

#[tokio::test]
async fn a_session_the_server_ends_idle_has_its_close_line() {
    let _alone = LOGGED.lock().await;
    let logs = Logs::capture(tracing::Level::INFO);
    bounded(async {
        let fixture = Fixture::start(
            |config| config,
            |http| http.with_session_idle_timeout(std::time::Duration::from_millis(200)),
        )
        .await;
        let alice = fixture.es.sign(&claims("tools:read"));
        let opened = fixture
            .post_to("/mcp", Some(&format!("Bearer {alice}")), INITIALIZE, &[])
            .await;
        assert_eq!(opened.status, 200, "{opened:?}");
        // Left idle: rmcp ends it, the sweep logs it.
        loop {
            let closed: Vec<String> = logs
                .audit()
                .into_iter()
                .filter(|line| line.contains("session_closed"))
                .collect();
            if let [line] = closed.as_slice() {
                assert!(line.contains("closed_by=\"server\""), "{line}");
                assert!(line.contains(r#"caller=["sub""#), "{line}");
                break;
            }
            assert!(closed.is_empty(), "{closed:?}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        fixture.server.stop().await;
    })
    .await;
}
