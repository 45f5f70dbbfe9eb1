//! A 2026-07-28 approval is its caller's: the `requestState` sealed when
//! one OAuth subject was asked does not verify in another subject's retry,
//! even with the person's accept; the same subject goes on, with any token
//! of its own. rmcp's client, on 2026-07-28, with the test's tokens.

use super::Fixture;
use super::signer::claims;
use crate::support::bounded;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig, ElicitResult,
    ElicitationAction, ErrorCode, Implementation, InputResponses, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient, ServiceError};
use tool_core::{ToolRegistry, tool};
use tool_mcp::HttpServer;

/// Wipe the store
#[tool(destructive, needs_approval)]
pub(super) async fn wipe() -> String {
    "wiped".to_owned()
}

/// A client on 2026-07-28 that can be asked (its person is the test).
#[derive(Clone)]
pub(super) struct Askable;

impl ClientHandler for Askable {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder().enable_elicitation().build(),
            Implementation::new("oauth-approval-test", "0.1.0"),
        )
        .with_protocol_version(ProtocolVersion::V_2026_07_28)
    }
}

/// A 2026-07-28 client of the fixture sending `Bearer token`.
pub(super) async fn connect(fixture: &Fixture, token: &str) -> RunningService<RoleClient, Askable> {
    let config =
        StreamableHttpClientTransportConfig::with_uri(fixture.url("/mcp")).auth_header(token);
    Askable
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_config(config),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client connects")
}

/// `wipe` retried with `state` and the person's accept.
pub(super) fn accepted(state: &str) -> CallToolRequestParams {
    let accept: InputResponses = [(
        "approval".to_owned(),
        serde_json::to_value(ElicitResult::new(ElicitationAction::Accept)).unwrap(),
    )]
    .into();
    CallToolRequestParams::new("wipe")
        .with_request_state(state)
        .with_input_responses(accept)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_state_is_refused_in_another_subjects_retry() {
    bounded(async {
        let mut tools = ToolRegistry::new();
        tools.register(WipeTool).unwrap();
        let fixture = Fixture::serving(tools, |config| config, HttpServer::stateless).await;
        let alice = fixture.es.sign(&claims("tools:write"));
        let mut bob_claims = claims("tools:write");
        bob_claims["sub"] = "bob".into();
        let bob = fixture.es.sign(&bob_claims);

        let asked = connect(&fixture, &alice).await;
        let state = match asked
            .call_tool_once(CallToolRequestParams::new("wipe"))
            .await
        {
            Ok(CallToolResponse::InputRequired(asked)) => {
                asked.request_state.expect("a requestState")
            }
            other => panic!("alice is asked, got {other:?}"),
        };

        // Bob, with a valid token and the scope, sends alice's state and
        // an accept: the state does not verify for him, nothing runs.
        let other = connect(&fixture, &bob).await;
        match other.call_tool_once(accepted(&state)).await {
            Err(ServiceError::McpError(error)) => {
                assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
                assert!(
                    error.message.starts_with("requestState does not verify"),
                    "{}",
                    error.message
                );
            }
            other => panic!("bob is refused, got {other:?}"),
        }
        assert!(fixture.callers.lock().unwrap().is_empty(), "nothing ran");

        // Alice, with a refreshed token (another key, another expiry),
        // runs it: the state is bound to the subject, not to the token.
        let mut refreshed = claims("tools:write");
        refreshed["exp"] = (refreshed["exp"].as_u64().unwrap() + 60).into();
        let refreshed = fixture.rs.sign(&refreshed);
        let again = connect(&fixture, &refreshed).await;
        let ran = again.call_tool_once(accepted(&state)).await;
        let Ok(CallToolResponse::Complete(ran)) = ran else {
            panic!("alice's retry runs, got {ran:?}");
        };
        assert_eq!(ran.content[0].as_text().unwrap().text, "wiped");
        let callers = fixture.callers.lock().unwrap().clone();
        assert_eq!(callers.len(), 1, "{callers:?}");
        assert_eq!(
            callers[0]
                .as_ref()
                .and_then(|caller| caller.subject.as_deref()),
            Some("alice")
        );

        for client in [asked, other, again] {
            client.cancel().await.unwrap();
        }
        fixture.server.stop().await;
    })
    .await;
}
