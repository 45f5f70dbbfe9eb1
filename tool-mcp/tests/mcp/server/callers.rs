//! The limits per caller, counted in this process's memory (the same code
//! counts them in a shared store, `interop/checks/shared_sessions.sh`):
//! sessions open, requests in flight and the rate, each 429 with
//! `Retry-After`, each caller (a token, or an address as a trusted proxy
//! gives it) with its own; a bad trusted proxy refuses to start.

use crate::support::{INITIALIZE, bearer, bounded, call, open_session, post, send, start};
use std::time::Duration;
use tool_mcp::{CallerLimits, HttpServer};

const TOKEN: &str = "callers-token";
const PING: &str = r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#;
/// A request of a revision before 2026-07-28, served without a session.
const LEGACY: (&str, &str) = ("MCP-Protocol-Version", "2025-06-18");

fn assert_too_many(answer: &crate::support::Answer, says: &str) {
    assert_eq!(answer.status, 429, "{answer:?}");
    let retry: u64 = answer
        .header("retry-after")
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("no Retry-After in seconds: {answer:?}"));
    assert!(retry >= 1, "{answer:?}");
    assert!(answer.body.contains(says), "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_has_at_most_its_sessions_and_a_closed_one_frees_its_place() {
    bounded(async {
        let server = start(|server: HttpServer| {
            server
                .with_bearer_token(TOKEN)
                .with_caller_limits(CallerLimits::new().sessions(2))
        })
        .await;
        let bearer = bearer(TOKEN);
        let auth = [("Authorization", bearer.as_str())];
        let first = open_session(&server, &auth).await;
        let _second = open_session(&server, &auth).await;
        let third = send(server.address, post(&server.host(), &auth, INITIALIZE)).await;
        assert_too_many(&third, "already has 2 sessions open");
        assert_eq!(third.header("mcp-session-id"), None, "{third:?}");

        let closing = format!(
            "DELETE /mcp HTTP/1.1\r\nHost: {}\r\nAuthorization: {bearer}\r\nMcp-Session-Id: {first}\r\n\
             Connection: close\r\n\r\n",
            server.host()
        );
        let closed = send(server.address, closing.into_bytes()).await;
        assert_eq!(closed.status, 200, "{closed:?}");
        open_session(&server, &auth).await;
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_has_at_most_its_requests_in_flight() {
    bounded(async {
        let server = start(|server: HttpServer| {
            server
                .stateless()
                .with_caller_limits(CallerLimits::new().in_flight(1))
        })
        .await;
        let host = server.host();
        let address = server.address;
        // The nap holds the caller's one place until it is answered: a
        // request sent meanwhile is refused. Should the nap arrive while a
        // ping still holds the place (a slow machine), the nap is the one
        // refused: it is sent again.
        let mut refused = None;
        let mut rested = None;
        for _ in 0..5 {
            let nap = tokio::spawn(send(
                address,
                post(&host, &[LEGACY], &call(1, "nap", r#"{"ms":3000}"#)),
            ));
            // Let the nap arrive first (it is sent on another task).
            tokio::time::sleep(Duration::from_millis(200)).await;
            while refused.is_none() && !nap.is_finished() {
                let answer = send(address, post(&host, &[LEGACY], PING)).await;
                if answer.status == 429 {
                    refused = Some(answer);
                } else {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
            let answer = nap.await.unwrap();
            if answer.status != 429 {
                rested = Some(answer);
                break;
            }
            refused = None;
        }
        let rested = rested.expect("the nap got a place");
        let refused = refused.expect("a second request in flight was refused");
        assert_too_many(&refused, "already has 1 requests in flight");
        assert_eq!(rested.status, 200, "{rested:?}");
        assert!(rested.body.contains("rested"), "{rested:?}");
        // Given back before the answer's end: the next request has it.
        let answer = send(address, post(&host, &[LEGACY], PING)).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_caller_has_its_own_rate() {
    bounded(async {
        // Loopback is the trusted proxy here: X-Forwarded-For names the
        // client, so two addresses are two callers.
        let server = start(|server: HttpServer| {
            server.stateless().with_caller_limits(
                CallerLimits::new()
                    .rate(1, 3)
                    .trusted_proxies(["127.0.0.0/8"]),
            )
        })
        .await;
        let host = server.host();
        let from = |client: &'static str| [("X-Forwarded-For", client)];
        for n in 0..3 {
            let answer = send(server.address, post(&host, &from("198.51.100.1"), PING)).await;
            assert_eq!(answer.status, 200, "request {n}: {answer:?}");
        }
        let refused = send(server.address, post(&host, &from("198.51.100.1"), PING)).await;
        assert_too_many(
            &refused,
            "at most 1 requests a second (3 at once) per caller",
        );
        // Another address is another caller.
        let other = send(server.address, post(&host, &from("198.51.100.2"), PING)).await;
        assert_eq!(other.status, 200, "{other:?}");
        // Notifications are never limited: a cancellation always passes.
        let cancel =
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
        let passed = send(server.address, post(&host, &from("198.51.100.1"), cancel)).await;
        assert_eq!(passed.status, 202, "{passed:?}");
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_trusted_proxy_that_is_not_an_address_refuses_to_start() {
    let server = HttpServer::bind(crate::support::registry(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap()
        .with_caller_limits(CallerLimits::new().rate(5, 5).trusted_proxies(["nginx"]));
    let error = server
        .run(tokio_util::sync::CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    assert!(
        error.to_string().contains(r#"trusted proxy "nginx""#),
        "{error}"
    );
}
