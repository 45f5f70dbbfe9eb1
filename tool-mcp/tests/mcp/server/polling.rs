//! SSE polling (SEP-1699): a call's stream closed after the interval, the
//! answer read by reconnecting with `Last-Event-ID`, the call holding its
//! place in flight meanwhile; never in stateless serving.

use crate::support::{Answer, bounded, call, open_session, post, send, start, start_with};
use std::time::Duration;
use tool_core::{Content, DynamicTool, ToolOutput, ToolRegistry};

const CLOSE_AFTER: Duration = Duration::from_millis(300);
const RETRY: Duration = Duration::from_millis(50);

/// One SSE event's fields.
#[derive(Debug, Default)]
struct Event {
    id: Option<String>,
    data: String,
    retry: Option<String>,
}

fn events(body: &str) -> Vec<Event> {
    body.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut event = Event::default();
            for line in block.lines() {
                match line.split_once(':') {
                    Some(("id", value)) => event.id = Some(value.trim().to_owned()),
                    Some(("data", value)) => event.data.push_str(value.trim()),
                    Some(("retry", value)) => event.retry = Some(value.trim().to_owned()),
                    _ => {}
                }
            }
            event
        })
        .collect()
}

/// The answer to request `id` among `events`, if it is there.
fn answer_to(events: &[Event], id: u32) -> Option<serde_json::Value> {
    events
        .iter()
        .filter_map(|event| serde_json::from_str::<serde_json::Value>(&event.data).ok())
        .find(|message| message["id"] == id && message.get("result").is_some())
}

fn resume(host: &str, session: &str, last_event_id: &str) -> Vec<u8> {
    format!(
        "GET /mcp HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\
         Mcp-Session-Id: {session}\r\nLast-Event-ID: {last_event_id}\r\nConnection: close\r\n\r\n"
    )
    .into_bytes()
}

fn last_id(events: &[Event]) -> Option<String> {
    events.iter().rev().find_map(|event| event.id.clone())
}

#[tokio::test]
async fn a_long_call_is_answered_through_reconnections() {
    let server = start(|server| server.with_sse_polling(CLOSE_AFTER, RETRY)).await;
    let session = open_session(&server, &[]).await;
    let headers = [("Mcp-Session-Id", session.as_str())];

    // The call takes longer than the interval: its stream ends first,
    // carrying only the event that says where to resume and when.
    let posted = bounded(send(
        server.address,
        post(&server.host(), &headers, &call(7, "nap", r#"{"ms": 1000}"#)),
    ))
    .await;
    assert_eq!(posted.status, 200, "{posted:?}");
    let first = events(&posted.body);
    assert!(
        answer_to(&first, 7).is_none(),
        "answered before the cut: {first:?}"
    );
    assert_eq!(first[0].retry.as_deref(), Some("50"), "{first:?}");
    let mut last = last_id(&first).expect("an event id to resume from");

    // Reconnections, each from the last id seen, until the answer.
    let mut reconnections = 0;
    let answer = bounded(async {
        loop {
            reconnections += 1;
            let resumed: Answer =
                send(server.address, resume(&server.host(), &session, &last)).await;
            assert_eq!(resumed.status, 200, "{resumed:?}");
            let got = events(&resumed.body);
            // It first names the id it resumes from, so a client that
            // reconnects with the last id a stream carried keeps its place.
            assert_eq!(got[0].id.as_deref(), Some(last.as_str()), "{got:?}");
            if let Some(answer) = answer_to(&got, 7) {
                return answer;
            }
            if let Some(id) = last_id(&got) {
                last = id;
            }
            tokio::time::sleep(RETRY).await;
        }
    })
    .await;
    assert_eq!(answer["result"]["content"][0]["text"], "rested");
    assert!(
        reconnections >= 2,
        "1,000 ms need more than one 300 ms poll"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_cut_call_keeps_its_place_in_flight_until_it_ends() {
    let server = start(|server| {
        server
            .with_sse_polling(Duration::from_millis(100), RETRY)
            .with_max_calls_per_session(1)
    })
    .await;
    let session = open_session(&server, &[]).await;
    let headers = [("Mcp-Session-Id", session.as_str())];
    let posted = bounded(send(
        server.address,
        post(&server.host(), &headers, &call(7, "nap", r#"{"ms": 800}"#)),
    ))
    .await;
    assert!(answer_to(&events(&posted.body), 7).is_none(), "{posted:?}");
    // Its stream is gone, but the call still runs: the session's one
    // place is taken.
    let refused = send(
        server.address,
        post(
            &server.host(),
            &headers,
            &call(8, "echo", r#"{"value": "x"}"#),
        ),
    )
    .await;
    assert_eq!(refused.status, 429, "{refused:?}");
    // Once it has ended, the place is free again.
    tokio::time::sleep(Duration::from_millis(900)).await;
    let served = send(
        server.address,
        post(
            &server.host(),
            &headers,
            &call(9, "echo", r#"{"value": "x"}"#),
        ),
    )
    .await;
    assert_eq!(
        answer_to(&events(&served.body), 9).unwrap()["result"]["content"][0]["text"],
        "x"
    );
    server.stop().await;
}

/// Reports progress (so a stateless answer is an event stream, not JSON),
/// then answers after `ms`.
fn progressing() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools
        .register(DynamicTool::new(
            "progressing",
            "Reports progress, then answers after 400 ms",
            |_args, ctx| async move {
                ctx.report_progress(vec![Content::text("started")]);
                tokio::time::sleep(Duration::from_millis(400)).await;
                Ok(ToolOutput::text("rested"))
            },
        ))
        .unwrap();
    tools
}

#[tokio::test]
async fn a_stateless_call_is_never_cut() {
    let server = start_with(progressing(), |server| {
        server
            .stateless()
            .with_sse_polling(Duration::from_millis(100), RETRY)
    })
    .await;
    let call = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"progressing","arguments":{},"_meta":{"progressToken":"p"}}}"#;
    let answered = bounded(send(server.address, post(&server.host(), &[], call))).await;
    assert_eq!(answered.status, 200, "{answered:?}");
    // An event stream (the progress came first), longer than the
    // interval, and whole: there is no session to resume it in.
    assert!(
        answered
            .header("content-type")
            .is_some_and(|kind| kind.starts_with("text/event-stream")),
        "{answered:?}"
    );
    let got = events(&answered.body);
    assert_eq!(
        answer_to(&got, 3).unwrap()["result"]["content"][0]["text"],
        "rested",
        "{got:?}"
    );
    server.stop().await;
}
