//! Stopping: no new connections, the calls in flight finish within the
//! grace period, those still running after it are cancelled and still
//! answered, and `run` returns `Ok`.

use crate::support::*;
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tool_core::{ToolContext, ToolRegistry, tool};

/// Keeps watch until cancelled
#[tool]
async fn vigil(ctx: ToolContext) -> String {
    ctx.cancelled().await;
    "relieved".to_owned()
}

fn tools() -> ToolRegistry {
    let mut tools = registry();
    tools.register(VigilTool).unwrap();
    tools
}

/// Sends `name(arguments)` in `session` and returns the task that reads
/// its answer; waits until the server has the call.
async fn call_in_flight(
    server: &Running,
    session: &str,
    name: &str,
    arguments: &str,
) -> tokio::task::JoinHandle<Answer> {
    let request = post(
        &server.host(),
        &[("Mcp-Session-Id", session)],
        &call(7, name, arguments),
    );
    let answer = tokio::spawn(send(server.address, request));
    tokio::time::sleep(Duration::from_millis(200)).await;
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_in_flight_finish_and_new_connections_are_refused() {
    bounded(async {
        let server = start_with(tools(), |server| {
            server.with_shutdown_grace(Duration::from_secs(5))
        })
        .await;
        let session = open_session(&server, &[]).await;
        let napping = call_in_flight(&server, &session, "nap", r#"{"ms":800}"#).await;

        let started = Instant::now();
        server.shutdown.cancel();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let address = server.address;
        let refused = tokio::task::spawn_blocking(move || TcpStream::connect(address))
            .await
            .unwrap();
        assert!(refused.is_err(), "a stopping server accepts no connection");

        let answer = napping.await.unwrap();
        let result = answer_json(&answer);
        assert_eq!(
            result["result"]["content"][0]["text"], "rested",
            "{answer:?}"
        );
        assert_eq!(result["result"]["isError"], false);
        server.task.await.unwrap().expect("run returns Ok");
        // It waited for the call, not for the grace period.
        assert!(started.elapsed() < Duration::from_secs(5));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_still_running_after_the_grace_are_cancelled_and_answered() {
    bounded(async {
        let server = start_with(tools(), |server| {
            server.with_shutdown_grace(Duration::from_millis(300))
        })
        .await;
        let session = open_session(&server, &[]).await;
        let watching = call_in_flight(&server, &session, "vigil", "{}").await;

        server.shutdown.cancel();
        let answer = watching.await.unwrap();
        let result = answer_json(&answer);
        // The tool saw its signal and answered; the call was not dropped.
        assert_eq!(result["id"], 7, "{answer:?}");
        assert_eq!(
            result["result"]["content"][0]["text"], "relieved",
            "{answer:?}"
        );
        server.task.await.unwrap().expect("run returns Ok");
    })
    .await;
}

/// A GET of a path, answered whole, on a new connection.
fn get(server: &Running, path: &str) -> Vec<u8> {
    format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.host()
    )
    .into_bytes()
}

/// With a drain delay, stopping first turns readiness to 503 while
/// requests are still served (a balancer takes the process out of
/// rotation), then stops accepting; a second request to stop (`stop_now`)
/// ends the grace at once, the call still running answered cancelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draining_says_not_ready_while_serving_and_a_second_stop_is_at_once() {
    bounded(async {
        let now = tokio_util::sync::CancellationToken::new();
        let server = start_with(tools(), {
            let now = now.clone();
            move |server| {
                server
                    .with_drain_delay(Duration::from_millis(1500))
                    .with_shutdown_grace(Duration::from_secs(30))
                    .with_stop_now(now)
            }
        })
        .await;
        let ready = send(server.address, get(&server, "/readyz")).await;
        assert_eq!((ready.status, ready.body.as_str()), (200, "ready\n"));
        let session = open_session(&server, &[]).await;
        let watching = call_in_flight(&server, &session, "vigil", "{}").await;

        server.shutdown.cancel();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let draining = send(server.address, get(&server, "/readyz")).await;
        assert_eq!(draining.status, 503, "{draining:?}");
        assert!(draining.body.contains("draining"), "{draining:?}");
        // Still served while draining, new connections included.
        let echoed = send(
            server.address,
            post(
                &server.host(),
                &[("Mcp-Session-Id", &session)],
                &call(8, "echo", r#"{"value":"still here"}"#),
            ),
        )
        .await;
        assert_eq!(
            answer_json(&echoed)["result"]["content"][0]["text"],
            "still here",
            "{echoed:?}"
        );

        // After the delay: no new connections.
        tokio::time::sleep(Duration::from_millis(1700)).await;
        let address = server.address;
        let refused = tokio::task::spawn_blocking(move || TcpStream::connect(address))
            .await
            .unwrap();
        assert!(
            refused.is_err(),
            "after the drain, no connection is accepted"
        );

        // The vigil would hold the 30 s grace; a second stop ends it now.
        let started = Instant::now();
        now.cancel();
        let answer = watching.await.unwrap();
        // The vigil ends when its call is cancelled, and says so.
        assert_eq!(
            answer_json(&answer)["result"]["content"][0]["text"],
            "relieved",
            "the call still running was cancelled and answered: {answer:?}"
        );
        server.task.await.unwrap().expect("run returns Ok");
        assert!(started.elapsed() < Duration::from_secs(10));
    })
    .await;
}
