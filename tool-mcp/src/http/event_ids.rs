//! The ids the event stores give the events of a resumable stream, the
//! same in every store (this process's memory for SSE polling, Redis in
//! tool-redis), so a `Last-Event-ID` reads the same whichever process,
//! and whichever store, gave it.

use rmcp::transport::streamable_http_server::session::store::EventStoreError;

/// The id of event `number` of `stream` (rmcp names a stream: a UUID per
/// request, or `SESSION:common`): `STREAM/N`, numbered from 1. 0 is the
/// stream's opening event, which a store need not keep: what follows it
/// is the whole stream.
///
/// ```
/// assert_eq!(tool_mcp::event_id("3f2a", 7), "3f2a/7");
/// assert_eq!(tool_mcp::split_event_id("3f2a/7").unwrap(), ("3f2a", 7));
/// ```
pub fn event_id(stream: &str, number: u64) -> String {
    format!("{stream}/{number}")
}

/// [`event_id`]'s two parts, or, for an id no store gave (a client's
/// invention), the error a store's replay answers: a stream, then a
/// number of digits only.
///
/// ```
/// for invented in ["3f2a", "/7", "3f2a/", "3f2a/+7", "3f2a/x"] {
///     assert!(tool_mcp::split_event_id(invented).is_err(), "{invented}");
/// }
/// ```
pub fn split_event_id(id: &str) -> Result<(&str, u64), EventStoreError> {
    let refused = || -> EventStoreError { format!("the event id {id:?} is not one this store gave").into() };
    let (stream, number) = id.rsplit_once('/').ok_or_else(refused)?;
    if stream.is_empty() || number.is_empty() || !number.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(refused());
    }
    Ok((stream, number.parse().map_err(|_| refused())?))
}
