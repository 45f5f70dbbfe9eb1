//! Serving without sessions, and the limits that hold for every request
//! whether it has a session or not: requests in flight in the process,
//! connections not yet past the checks, and the health answer that needs
//! neither a token nor a known `Host`.

use crate::support::*;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt};
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The legacy revision's header, which a request without a session sends.
const LEGACY: (&str, &str) = ("MCP-Protocol-Version", "2025-06-18");

#[tokio::test]
async fn stateless_serves_legacy_clients_without_a_session() {
    bounded(async {
        let server = start(|server| server.stateless()).await;
        let initialized = send(server.address, post(&server.host(), &[], INITIALIZE)).await;
        assert_eq!(initialized.status, 200, "{initialized:?}");
        assert_eq!(initialized.header("mcp-session-id"), None, "no session is opened");
        assert_eq!(initialized.header("content-type"), Some("application/json"));

        let listed = send(server.address, post(&server.host(), &[LEGACY], LIST)).await;
        assert_eq!(listed.status, 200, "{listed:?}");
        assert!(listed.body.contains(r#""name":"echo""#), "{listed:?}");

        let echoed = send(
            server.address,
            post(&server.host(), &[LEGACY], &call(3, "echo", r#"{"value":"Pi"}"#)),
        )
        .await;
        assert_eq!(echoed.status, 200, "{echoed:?}");
        assert_eq!(echoed.header("content-type"), Some("application/json"));
        // Its length is known, and said: not sent chunked.
        assert_eq!(echoed.header("transfer-encoding"), None, "{echoed:?}");
        assert_eq!(
            echoed.header("content-length"),
            Some(echoed.body.len().to_string().as_str())
        );
        let answer: serde_json::Value = serde_json::from_str(&echoed.body).unwrap();
        assert_eq!(answer["id"], 3);
        assert_eq!(answer["result"]["content"][0]["text"], "Pi");

        // No stream outside a request: there is no session to carry one.
        let get = format!(
            "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n",
            server.host()
        );
        let stream = send(server.address, get.into_bytes()).await;
        assert_eq!(stream.status, 405, "{stream:?}");
        server.stop().await;
    })
    .await;
}

/// Calls of `nap(ms)` sent at once, without a session: how many were
/// answered 200 and how many 429 (with `Retry-After`).
async fn concurrent_stateless_naps(server: &Running, count: u32, ms: u64) -> (usize, usize) {
    let sends = (0..count).map(|id| {
        send(
            server.address,
            post(
                &server.host(),
                &[LEGACY],
                &call(id + 10, "nap", &format!(r#"{{"ms":{ms}}}"#)),
            ),
        )
    });
    let answers = all(sends.map(tokio::spawn).collect()).await;
    let busy: Vec<_> = answers
        .iter()
        .filter(|answer| answer.status == 429)
        .collect();
    for answer in &busy {
        assert_eq!(answer.header("retry-after"), Some("1"), "{answer:?}");
        assert!(
            answer
                .body
                .contains("requests are in flight on this server"),
            "{answer:?}"
        );
    }
    let served = answers.iter().filter(|answer| answer.status == 200).count();
    assert_eq!(served + busy.len(), answers.len(), "{answers:?}");
    (served, busy.len())
}

/// What each task gave, in order.
async fn all<T: Send + 'static>(tasks: Vec<tokio::task::JoinHandle<T>>) -> Vec<T> {
    let mut outputs = Vec::with_capacity(tasks.len());
    for task in tasks {
        outputs.push(task.await.expect("the task does not panic"));
    }
    outputs
}

/// Stateless requests name no session, and are counted all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_in_flight_are_capped_for_the_whole_process() {
    bounded(async {
        let server = start(|server| server.stateless().with_max_in_flight(4)).await;
        // Each nap outlasts the sending of all of them by far.
        assert_eq!(concurrent_stateless_naps(&server, 6, 3000).await, (4, 2));
        // Answered, they make room again.
        assert_eq!(concurrent_stateless_naps(&server, 2, 10).await, (2, 0));
        server.stop().await;
    })
    .await;
}

/// On a server with sessions, 2026-07-28 clients have none: the process
/// cap counts their calls too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessionless_revision_calls_are_capped_too() {
    bounded(async {
        let server =
            start(|server| server.with_max_in_flight(3).with_max_calls_per_session(32)).await;
        let transport =
            StreamableHttpClientTransport::from_uri(format!("http://{}/mcp", server.address));
        let client = ()
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("connects on 2026-07-28");
        let calls = (0..5).map(|_| {
            let arguments = json!({"ms": 3000}).as_object().cloned().unwrap();
            let peer = client.peer().clone();
            tokio::spawn(async move {
                peer.call_tool(CallToolRequestParams::new("nap").with_arguments(arguments))
                    .await
            })
        });
        let answers = all(calls.collect()).await;
        let refused = answers.iter().filter(|answer| answer.is_err()).count();
        assert_eq!(refused, 2, "{answers:?}");
        client.cancel().await.unwrap();
        server.stop().await;
    })
    .await;
}

/// Reads from `stream` until it ends; `true` when the server closed it
/// without a byte (reset counts as closed).
fn closed_unanswered(stream: &mut TcpStream) -> bool {
    stream.set_read_timeout(Some(CEILING)).unwrap();
    let mut byte = [0u8; 1];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(error) => {
            error.kind() != std::io::ErrorKind::WouldBlock
                && error.kind() != std::io::ErrorKind::TimedOut
        }
    }
}

/// Connections that send nothing past the checks hold a place each; when
/// every place is taken, a new connection closes the oldest of them, and a
/// connection that passed the checks is never closed for a newer one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_not_past_the_checks_are_capped_oldest_first() {
    bounded(async {
        let server = start(|server| {
            server
                .stateless()
                .with_bearer_token(TOKEN)
                .with_max_pending_connections(2)
        })
        .await;
        let address = server.address;
        let host = server.host();
        tokio::task::spawn_blocking(move || {
            let bearer = bearer(TOKEN);
            let authorized = [("Authorization", bearer.as_str()), LEGACY];
            // Accepted in order: each is let in before the next connects.
            let connect = || {
                let stream = TcpStream::connect(address).unwrap();
                std::thread::sleep(Duration::from_millis(150));
                stream
            };
            let mut first = connect();
            let mut second = connect();
            let mut third = connect();
            assert!(
                closed_unanswered(&mut first),
                "the oldest pending one is closed"
            );

            // A wrong token does not pass the checks; the right one does.
            second
                .write_all(&keep_alive(post(
                    &host,
                    &[("Authorization", "Bearer wrong")],
                    LIST,
                )))
                .unwrap();
            assert_eq!(read_answer(&mut second), 401);
            third
                .write_all(&keep_alive(post(&host, &authorized, LIST)))
                .unwrap();
            assert_eq!(read_answer(&mut third), 200);

            // Pending now: second. Two newcomers: the second closes it.
            let _fourth = connect();
            let _fifth = connect();
            assert!(
                closed_unanswered(&mut second),
                "still pending after a 401: closed"
            );
            // Past the checks: kept, and served again.
            third
                .write_all(&keep_alive(post(&host, &authorized, LIST)))
                .unwrap();
            assert_eq!(read_answer(&mut third), 200);
        })
        .await
        .unwrap();
        server.stop().await;
    })
    .await;
}

/// The status of one answer read off a kept connection (its length known:
/// a JSON answer or a refusal).
fn read_answer(stream: &mut TcpStream) -> u16 {
    stream.set_read_timeout(Some(CEILING)).unwrap();
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let read = stream.read(&mut buffer).expect("an answer");
        assert!(
            read > 0,
            "closed before an answer: {}",
            String::from_utf8_lossy(&bytes)
        );
        bytes.extend_from_slice(&buffer[..read]);
        let text = String::from_utf8_lossy(&bytes);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize = head
                .lines()
                .find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().unwrap())
                })
                .expect("an answer of known length");
            if body.len() >= length {
                return head.split(' ').nth(1).unwrap().parse().unwrap();
            }
        }
    }
}

/// `request` with `Connection: close` taken out, so the connection stays.
fn keep_alive(request: Vec<u8>) -> Vec<u8> {
    String::from_utf8(request)
        .unwrap()
        .replace("Connection: close\r\n", "")
        .into_bytes()
}

#[tokio::test]
async fn health_needs_no_token_and_no_known_host() {
    bounded(async {
        let server = start(|server| server.with_bearer_token(TOKEN)).await;
        let get = |method: &str, path: &str| {
            format!("{method} {path} HTTP/1.1\r\nHost: backend-7.internal:9000\r\nConnection: close\r\n\r\n")
                .into_bytes()
        };
        let health = send(server.address, get("GET", "/healthz")).await;
        assert_eq!(health.status, 200, "{health:?}");
        assert_eq!(health.body, "ok\n");
        let head = send(server.address, get("HEAD", "/healthz")).await;
        assert_eq!(head.status, 200, "{head:?}");
        let post = send(server.address, get("POST", "/healthz")).await;
        assert_eq!(post.status, 405, "{post:?}");
        assert_eq!(post.header("allow"), Some("GET, HEAD"));
        // Everything else keeps its checks: the Host first.
        let mcp = send(server.address, get("GET", "/mcp")).await;
        assert_eq!(mcp.status, 403, "{mcp:?}");
        server.stop().await;
    })
    .await;
}
