//! A session is its opener's: another caller's request naming it, with a
//! valid token of its own, is answered as an unknown session is (GET, POST,
//! DELETE alike), and logged at warn without the token; the opener, with
//! any token of the same subject, goes on. The static token's holders are
//! one caller, distinct from every OAuth subject.

use super::signer::claims;
use super::{Fixture, call};
use crate::support::{LOGGED, Logs, bounded};
use reqwest::Method;
use serde_json::Value;
use tool_mcp::HttpServer;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sessions","version":"0.1.0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// One answer: its status, `Content-Type`, and body (not read for a GET
/// that opened a stream, which does not end).
#[derive(Debug, PartialEq)]
struct Seen {
    status: u16,
    content_type: Option<String>,
    body: Option<String>,
}

impl Seen {
    /// The JSON-RPC answer in a body that is JSON or an event stream.
    fn json(&self) -> Value {
        let body = self.body.as_deref().expect("a body");
        serde_json::from_str(body).unwrap_or_else(|_| {
            let data = body
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim)
                .rfind(|data| !data.is_empty())
                .unwrap_or_else(|| panic!("no JSON in {self:?}"));
            serde_json::from_str(data).unwrap()
        })
    }

    fn text(&self) -> String {
        self.json()["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no text: {self:?}"))
            .to_owned()
    }
}

/// rmcp's answer to a session it does not have.
fn unknown() -> Seen {
    Seen {
        status: 404,
        content_type: None,
        body: Some("Not Found: Session not found".to_owned()),
    }
}

impl Fixture {
    /// `method` on `/mcp` with `Bearer token`, naming `session`, with
    /// `body` when it is a POST.
    async fn send(&self, method: Method, token: &str, session: &str, body: &str) -> Seen {
        let mut request = self
            .client
            .request(method.clone(), self.url("/mcp"))
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2025-06-18")
            .header("Authorization", format!("Bearer {token}"))
            .header("Mcp-Session-Id", session);
        if method == Method::POST {
            request = request
                .header("Content-Type", "application/json")
                .body(body.to_owned());
        }
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .map(|value| value.to_str().unwrap().to_owned());
        // A GET that succeeded is the session's stream: left unread.
        let body = if method == Method::GET && status == 200 {
            None
        } else {
            Some(response.text().await.unwrap())
        };
        Seen {
            status,
            content_type,
            body,
        }
    }

    /// A session opened with `token` (and its `initialized` sent).
    async fn open_session(&self, token: &str) -> String {
        let response = self
            .client
            .post(self.url("/mcp"))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("Authorization", format!("Bearer {token}"))
            .body(INITIALIZE)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let session = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let sent = self.send(Method::POST, token, &session, INITIALIZED).await;
        assert_eq!(sent.status, 202, "{sent:?}");
        session
    }
}

#[tokio::test]
async fn another_callers_session_is_answered_as_unknown_and_its_opener_goes_on() {
    let _alone = LOGGED.lock().await;
    let logs = Logs::capture(tracing::Level::WARN);
    bounded(async {
        let fixture = Fixture::start(|config| config, |http| http).await;
        let alice = fixture.es.sign(&claims("tools:read"));
        let session = fixture.open_session(&alice).await;

        let mut bob_claims = claims("tools:write");
        bob_claims["sub"] = "bob".into();
        let bob = fixture.es.sign(&bob_claims);
        for method in [Method::POST, Method::GET, Method::DELETE] {
            let seen = fixture
                .send(method.clone(), &bob, &session, &call("look"))
                .await;
            assert_eq!(seen, unknown(), "{method}");
            // The same answer as a session no one has: nothing to probe.
            let none = fixture
                .send(method.clone(), &bob, "no-such-session", &call("look"))
                .await;
            assert_eq!(none, unknown(), "{method}");
        }
        assert!(fixture.callers.lock().unwrap().is_empty(), "nothing ran");

        // Alice's session survived bob's DELETE; a new token of hers (a
        // refreshed one: another key, another expiry) uses it too.
        let looked = fixture
            .send(Method::POST, &alice, &session, &call("look"))
            .await;
        assert_eq!(looked.text(), "looked");
        let mut refreshed = claims("tools:read");
        refreshed["exp"] = (refreshed["exp"].as_u64().unwrap() + 60).into();
        let refreshed = fixture.rs.sign(&refreshed);
        let looked = fixture
            .send(Method::POST, &refreshed, &session, &call("look"))
            .await;
        assert_eq!(looked.text(), "looked");
        let stream = fixture.send(Method::GET, &refreshed, &session, "").await;
        assert_eq!(stream.status, 200, "{stream:?}");

        // Closed by her: gone for everyone.
        let closed = fixture.send(Method::DELETE, &alice, &session, "").await;
        assert_eq!(closed.status, 200, "{closed:?}");
        let after = fixture
            .send(Method::POST, &alice, &session, &call("look"))
            .await;
        assert_eq!(after, unknown());
        fixture.server.stop().await;

        let logged = logs.text();
        let warnings: Vec<&str> = logged
            .lines()
            .filter(|line| line.contains("another caller opened"))
            .collect();
        assert_eq!(warnings.len(), 3, "{logged}");
        assert!(
            warnings.iter().all(|line| line.contains("WARN")),
            "{logged}"
        );
        assert!(warnings[0].contains(r#"caller=sub "bob""#), "{logged}");
        assert!(warnings[0].contains(r#"opened_by=sub "alice""#), "{logged}");
        for token in [&alice, &bob, &refreshed] {
            assert!(
                !logged.contains(token.as_str()),
                "a token in the logs: {logged}"
            );
        }
    })
    .await;
}

/// [`unknown`] is rmcp's own answer: a server without credentials, where
/// rmcp alone judges the session, answers it too.
#[tokio::test]
async fn the_answer_is_rmcps_own_to_an_unknown_session() {
    bounded(async {
        let server = crate::support::start(|http| http).await;
        let response = reqwest::Client::new()
            .post(format!("http://{}/mcp", server.address))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .header("MCP-Protocol-Version", "2025-06-18")
            .header("Mcp-Session-Id", "no-such-session")
            .body(call("look"))
            .send()
            .await
            .unwrap();
        let seen = Seen {
            status: response.status().as_u16(),
            content_type: response
                .headers()
                .get("content-type")
                .map(|value| value.to_str().unwrap().to_owned()),
            body: Some(response.text().await.unwrap()),
        };
        assert_eq!(seen, unknown());
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn the_static_token_and_oauth_tokens_do_not_share_sessions() {
    let _alone = LOGGED.lock().await;
    bounded(async {
        let fixture = Fixture::start(
            |config| config,
            |http: HttpServer| http.with_bearer_token("static-Token_1"),
        )
        .await;
        let oauth = fixture.es.sign(&claims("tools:write"));
        let by_static = fixture.open_session("static-Token_1").await;
        let by_oauth = fixture.open_session(&oauth).await;

        for method in [Method::POST, Method::GET, Method::DELETE] {
            let crossed = fixture
                .send(method.clone(), &oauth, &by_static, &call("change"))
                .await;
            assert_eq!(crossed, unknown(), "{method}");
            let crossed = fixture
                .send(method.clone(), "static-Token_1", &by_oauth, &call("change"))
                .await;
            assert_eq!(crossed, unknown(), "{method}");
        }
        for (token, session) in [("static-Token_1", &by_static), (oauth.as_str(), &by_oauth)] {
            let changed = fixture
                .send(Method::POST, token, session, &call("change"))
                .await;
            assert_eq!(changed.text(), "changed");
        }
        fixture.server.stop().await;
    })
    .await;
}
