//! The HTTP server's safety checks, met by a real client: HTTP/1.1 written
//! by hand on a TCP socket, so every byte sent (or not sent) is the test's.

use crate::support::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use tool_mcp::HttpServer;

// ------------------------------------------------------------------ token

#[tokio::test]
async fn a_token_is_required_and_checked() {
    bounded(async {
        let server = start(|server| server.with_bearer_token(TOKEN)).await;

        let answer = send(server.address, post(&server.host(), &[], INITIALIZE)).await;
        assert_eq!(answer.status, 401, "{answer:?}");
        assert_eq!(
            answer.header("www-authenticate"),
            Some(r#"Bearer realm="mcp""#)
        );
        assert!(answer.body.contains("Authorization: Bearer"), "{answer:?}");

        for wrong in [
            bearer("s3cret"),
            bearer(&format!("{TOKEN}x")),
            format!("Basic {TOKEN}"),
        ] {
            let headers = [("Authorization", wrong.as_str())];
            let answer = send(server.address, post(&server.host(), &headers, INITIALIZE)).await;
            assert_eq!(answer.status, 401, "{wrong}: {answer:?}");
            assert_eq!(
                answer.header("www-authenticate"),
                Some(r#"Bearer realm="mcp", error="invalid_token""#)
            );
        }

        let right = bearer(TOKEN);
        let auth = [("Authorization", right.as_str())];
        let answer = send(server.address, post(&server.host(), &auth, INITIALIZE)).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        assert!(answer.body.contains(r#""serverInfo""#), "{answer:?}");
        let session = answer.session();

        // Every request needs it, not only the first.
        let headers = [("Mcp-Session-Id", session.as_str())];
        let answer = send(server.address, post(&server.host(), &headers, LIST)).await;
        assert_eq!(answer.status, 401, "{answer:?}");
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_non_loopback_address_without_a_token_is_refused() {
    let server = HttpServer::bind(registry(), "0.0.0.0:0".parse().unwrap())
        .await
        .unwrap();
    let error = server
        .run(CancellationToken::new())
        .await
        .expect_err("refuses to start");
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    let message = error.to_string();
    assert!(
        message.starts_with("refusing to serve MCP on 0.0.0.0:"),
        "{message}"
    );
    assert!(message.contains("without authentication"), "{message}");
    assert!(
        message.contains("HttpServer::with_bearer_token"),
        "{message}"
    );
    assert!(
        message.contains("HttpServer::allow_unauthenticated"),
        "{message}"
    );

    // With a token, or said to be meant, it starts.
    start_at("0.0.0.0:0", |server| server.with_bearer_token(TOKEN))
        .await
        .stop()
        .await;
    start_at("0.0.0.0:0", HttpServer::allow_unauthenticated)
        .await
        .stop()
        .await;

    // A token that cannot be sent in a header is refused too.
    let server = HttpServer::bind(registry(), "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap()
        .with_bearer_token("two words");
    let error = server.run(CancellationToken::new()).await.unwrap_err();
    assert!(error.to_string().contains("bearer token"), "{error}");
}

// ------------------------------------------------------------ Host, Origin

#[tokio::test]
async fn a_refused_host_is_not_told_the_accepted_ones() {
    bounded(async {
        let server = start(|server| server.with_allowed_hosts(["mcp.internal.example"])).await;
        let answer = send(server.address, post("evil.example", &[], INITIALIZE)).await;
        assert_eq!(answer.status, 403, "{answer:?}");
        // The accepted names may be internal ones: the log has them, the
        // stranger does not.
        assert_eq!(
            answer.body,
            "Forbidden: Host \"evil.example\" is not accepted by this server\n"
        );
        let answer = send(
            server.address,
            post("mcp.internal.example", &[], INITIALIZE),
        )
        .await;
        assert_eq!(answer.status, 200, "{answer:?}");
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn all_interfaces_accept_this_machines_addresses() {
    bounded(async {
        // The case that answered every request with 403 before: bound to
        // every interface, with rmcp's list holding only "0.0.0.0".
        let server = start_at("0.0.0.0:0", HttpServer::allow_unauthenticated).await;
        let port = server.address.port();
        let answer = send(
            server.address,
            post(&format!("127.0.0.1:{port}"), &[], INITIALIZE),
        )
        .await;
        assert_eq!(answer.status, 200, "{answer:?}");
        if cfg!(target_os = "linux") {
            // Not a loopback name, but an address of this machine (all of
            // 127/8 is, on Linux).
            let host = format!("127.0.0.2:{port}");
            let answer = send(server.address, post(&host, &[], INITIALIZE)).await;
            assert_eq!(answer.status, 200, "{answer:?}");
        }
        let answer = send(server.address, post("192.0.2.7", &[], INITIALIZE)).await;
        assert_eq!(answer.status, 403, "{answer:?}");
        assert_eq!(
            answer.body,
            "Forbidden: Host \"192.0.2.7\" is not accepted by this server\n"
        );
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_foreign_origin_is_refused() {
    bounded(async {
        let server = start(|server| server.with_allowed_origins(["https://app.example.com"])).await;
        let host = server.host();
        for origin in ["https://evil.example", "null"] {
            let answer = send(
                server.address,
                post(&host, &[("Origin", origin)], INITIALIZE),
            )
            .await;
            assert_eq!(answer.status, 403, "{origin}: {answer:?}");
            assert!(
                answer.body
                    == format!("Forbidden: Origin {origin:?} is not accepted by this server\n"),
                "{answer:?}"
            );
        }
        for origin in ["http://localhost:3000", "https://app.example.com"] {
            let answer = send(
                server.address,
                post(&host, &[("Origin", origin)], INITIALIZE),
            )
            .await;
            assert_eq!(answer.status, 200, "{origin}: {answer:?}");
        }
        server.stop().await;
    })
    .await;
}

// ------------------------------------------------------------------ limits

#[tokio::test]
async fn an_oversized_body_gets_413() {
    bounded(async {
        let server = start(|server| server.with_max_body_bytes(1024)).await;
        let padding = "x".repeat(2048);
        let big = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"pad":"{padding}"}}}}"#);
        let answer = send(server.address, post(&server.host(), &[], &big)).await;
        assert_eq!(answer.status, 413, "{answer:?}");
        assert_eq!(
            answer.body,
            "Payload Too Large: a request body may have at most 1024 bytes\n"
        );

        // Chunked, with no length said in advance: counted as it comes.
        let chunked = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nAccept: application/json, text/event-stream\r\n\
             Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\
             {:x}\r\n{big}\r\n0\r\n\r\n",
            server.host(),
            big.len()
        );
        let answer = send(server.address, chunked.into_bytes()).await;
        assert_eq!(answer.status, 413, "{answer:?}");

        // Within the limit, served.
        let answer = send(server.address, post(&server.host(), &[], INITIALIZE)).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_slow_client_is_cut_off_and_others_are_still_served() {
    bounded(async {
        let timeout = Duration::from_millis(300);
        let server = start(|server| {
            server
                .with_header_read_timeout(timeout)
                .with_body_read_timeout(timeout)
        })
        .await;
        let address = server.address;

        // Headers that never end: the connection is closed, with no answer.
        let headers_never_end = tokio::task::spawn_blocking(move || {
            let mut stream = TcpStream::connect(address).unwrap();
            stream.set_read_timeout(Some(CEILING)).unwrap();
            stream
                .write_all(b"POST /mcp HTTP/1.1\r\nHost: localhost\r\n")
                .unwrap();
            let started = Instant::now();
            let mut bytes = Vec::new();
            let _ = stream.read_to_end(&mut bytes);
            (started.elapsed(), bytes)
        });
        // A body that never ends: 408, then the connection is closed.
        let body_never_ends = tokio::task::spawn_blocking(move || {
            let mut stream = TcpStream::connect(address).unwrap();
            stream.set_read_timeout(Some(CEILING)).unwrap();
            let mut request = post("localhost", &[], INITIALIZE);
            request.truncate(request.len() - 10);
            stream.write_all(&request).unwrap();
            let started = Instant::now();
            let mut bytes = Vec::new();
            stream.read_to_end(&mut bytes).unwrap();
            (started.elapsed(), parse(&bytes))
        });

        // Meanwhile, others are served.
        let answer = send(address, post(&server.host(), &[], INITIALIZE)).await;
        assert_eq!(answer.status, 200, "{answer:?}");

        let (waited, bytes) = headers_never_end.await.unwrap();
        assert!(waited >= timeout / 2 && waited < timeout * 10, "{waited:?}");
        assert!(
            bytes.is_empty() || String::from_utf8_lossy(&bytes).starts_with("HTTP/1.1 408"),
            "{:?}",
            String::from_utf8_lossy(&bytes)
        );
        let (waited, answer) = body_never_ends.await.unwrap();
        assert!(waited >= timeout / 2 && waited < timeout * 10, "{waited:?}");
        assert_eq!(answer.status, 408, "{answer:?}");
        assert!(answer.body.starts_with("Request Timeout"), "{answer:?}");

        // And still, after.
        let answer = send(address, post(&server.host(), &[], INITIALIZE)).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn sessions_beyond_the_limit_get_503_until_one_closes() {
    bounded(async {
        let server = start(|server| server.with_max_sessions(2)).await;
        let first = open_session(&server, &[]).await;
        let _second = open_session(&server, &[]).await;

        let answer = send(server.address, post(&server.host(), &[], INITIALIZE)).await;
        assert_eq!(answer.status, 503, "{answer:?}");
        assert_eq!(answer.header("retry-after"), Some("1"));
        assert!(answer.body.contains("2 sessions are open"), "{answer:?}");

        // Requests in the open sessions go on.
        let headers = [("Mcp-Session-Id", first.as_str())];
        let answer = send(server.address, post(&server.host(), &headers, LIST)).await;
        assert_eq!(answer.status, 200, "{answer:?}");

        // Closing one makes room.
        let delete = format!(
            "DELETE /mcp HTTP/1.1\r\nHost: {}\r\nMcp-Session-Id: {first}\r\nConnection: close\r\n\r\n",
            server.host()
        );
        let answer = send(server.address, delete.into_bytes()).await;
        assert!(answer.status == 202 || answer.status == 200, "{answer:?}");
        let answer = send(server.address, post(&server.host(), &[], INITIALIZE)).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn an_idle_session_expires_and_its_id_gets_404() {
    bounded(async {
        let server =
            start(|server| server.with_session_idle_timeout(Duration::from_millis(300))).await;
        let session = open_session(&server, &[]).await;
        let headers = [("Mcp-Session-Id", session.as_str())];
        let answer = send(server.address, post(&server.host(), &headers, LIST)).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        assert!(answer.body.contains(r#""name":"echo""#), "{answer:?}");

        tokio::time::sleep(Duration::from_millis(1200)).await;
        let answer = send(server.address, post(&server.host(), &headers, LIST)).await;
        assert_eq!(answer.status, 404, "{answer:?}");

        // A new session is the way on.
        open_session(&server, &[]).await;
        server.stop().await;
    })
    .await;
}

#[tokio::test]
async fn requests_in_flight_per_session_are_limited() {
    bounded(async {
        let server = start(|server| server.with_max_calls_per_session(1)).await;
        let session = open_session(&server, &[]).await;
        let other = open_session(&server, &[]).await;
        let host = server.host();
        let headers = [("Mcp-Session-Id", session.as_str())];

        let slow = tokio::spawn(send(
            server.address,
            post(&host, &headers, &call(3, "nap", r#"{"ms":1000}"#)),
        ));
        tokio::time::sleep(Duration::from_millis(300)).await;

        let answer = send(
            server.address,
            post(&host, &headers, &call(4, "echo", r#"{"value":"hi"}"#)),
        )
        .await;
        assert_eq!(answer.status, 429, "{answer:?}");
        assert_eq!(answer.header("retry-after"), Some("1"));
        assert!(answer.body.contains("1 requests in flight"), "{answer:?}");

        // Notifications pass (a cancellation must always get through), and
        // other sessions have their own count.
        let cancelled =
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#;
        let answer = send(server.address, post(&host, &headers, cancelled)).await;
        assert_eq!(answer.status, 202, "{answer:?}");
        let elsewhere = [("Mcp-Session-Id", other.as_str())];
        let answer = send(
            server.address,
            post(&host, &elsewhere, &call(5, "echo", r#"{"value":"hi"}"#)),
        )
        .await;
        assert_eq!(answer.status, 200, "{answer:?}");

        let answer = slow.await.unwrap();
        assert_eq!(answer.status, 200, "{answer:?}");
        assert!(answer.body.contains("rested"), "{answer:?}");
        // Answered: the slot is free again.
        let answer = send(
            server.address,
            post(&host, &headers, &call(6, "echo", r#"{"value":"hi"}"#)),
        )
        .await;
        assert_eq!(answer.status, 200, "{answer:?}");
        assert!(answer.body.contains(r#""text":"hi""#), "{answer:?}");
        server.stop().await;
    })
    .await;
}
