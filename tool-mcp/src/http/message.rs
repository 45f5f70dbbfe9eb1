//! What a POST body is, read once and cheaply (the fields the gate needs,
//! the rest skipped without being built), and JSON-RPC's own answers to a
//! body that is not a message.

use super::Refusal;
use hyper::StatusCode;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use serde::Deserialize;
use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::json;
use std::borrow::Cow;

/// What a POST carries, as far as the gate cares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Message {
    Initialize,
    /// A JSON-RPC request other than `initialize`, or a batch.
    Request,
    /// A response or `notifications/cancelled`: about a request the server
    /// sent or runs, which with shared sessions may be another process's.
    /// Never limited (a cancellation must always get through).
    Answer,
    /// Any other notification: never limited either.
    Notification,
}

impl Message {
    /// A JSON-RPC request (`initialize` included): what the limits count.
    pub(super) fn is_request(self) -> bool {
        matches!(self, Message::Initialize | Message::Request)
    }
}

/// What a POST carries, and the tool a `tools/call` names (the gate checks
/// the caller's scopes against it before rmcp reads the body).
#[derive(Debug)]
pub(super) struct Peeked<'a> {
    pub message: Message,
    /// Read by OAuth's scope check alone.
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    pub tool: Option<Cow<'a, str>>,
}

/// The fields of a JSON-RPC message the gate reads.
#[derive(Deserialize)]
struct Peek<'a> {
    #[serde(default)]
    id: Option<IgnoredAny>,
    #[serde(default, borrow)]
    method: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    result: Option<IgnoredAny>,
    #[serde(default)]
    error: Option<IgnoredAny>,
    #[serde(default, borrow)]
    params: Option<ParamsPeek<'a>>,
}

/// The `name` of a message's params, when they are an object with a string
/// `name`; params of any other shape are skipped, not refused: rmcp (and
/// the handler's `malformed` answer) say what is wrong with them.
#[derive(Default)]
struct ParamsPeek<'a> {
    name: Option<Cow<'a, str>>,
}

impl<'de: 'a, 'a> Deserialize<'de> for ParamsPeek<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ParamsVisitor(std::marker::PhantomData))
    }
}

struct ParamsVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for ParamsVisitor<'a> {
    type Value = ParamsPeek<'a>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut peek = ParamsPeek::default();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if key == "name" && peek.name.is_none() {
                peek.name = map.next_value::<AnyString<'de>>()?.0;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(peek)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(ParamsPeek::default())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(ParamsPeek::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(ParamsPeek::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(ParamsPeek::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(ParamsPeek::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(ParamsPeek::default())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(ParamsPeek::default())
    }
}

/// A string, borrowed when it has no escapes; any other value is `None`.
struct AnyString<'a>(Option<Cow<'a, str>>);

impl<'de: 'a, 'a> Deserialize<'de> for AnyString<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Strings<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for Strings<'a> {
            type Value = AnyString<'a>;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("any JSON value")
            }
            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
                Ok(AnyString(Some(Cow::Borrowed(text))))
            }
            fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
                Ok(AnyString(Some(Cow::Owned(text.to_owned()))))
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(AnyString(None))
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(AnyString(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(AnyString(None))
            }
        }
        deserializer.deserialize_any(Strings(std::marker::PhantomData))
    }
}

impl Message {
    /// Reads `body`; a body that is not JSON-RPC is answered here, as
    /// JSON-RPC says: -32700 for text that is not JSON, -32600 for JSON that
    /// is not a message (rmcp would answer both with a plain-text 415).
    pub(super) fn of(body: &[u8]) -> Result<Peeked<'_>, Refusal> {
        if body.trim_ascii_start().first() == Some(&b'[') {
            // A batch (MCP 2025-03-26): rmcp decides (and the handler
            // checks each call's scope itself).
            return match serde_json::from_slice::<IgnoredAny>(body) {
                Ok(_) => Ok(Peeked {
                    message: Message::Request,
                    tool: None,
                }),
                Err(error) => Err(parse_error(&error)),
            };
        }
        let peek: Peek<'_> = match serde_json::from_slice(body) {
            Ok(peek) => peek,
            Err(error) if error.is_data() => {
                return Err(invalid_request(
                    "the body is JSON but not a JSON-RPC message (an object with \
                     \"jsonrpc\": \"2.0\" and a method, or a result or error)",
                ));
            }
            Err(error) => return Err(parse_error(&error)),
        };
        let message = match (peek.method.as_deref(), peek.id.is_some()) {
            (Some("initialize"), true) => Message::Initialize,
            (Some(_), true) => Message::Request,
            (Some("notifications/cancelled"), false) => Message::Answer,
            (Some(_), false) => Message::Notification,
            (None, _) if peek.result.is_some() || peek.error.is_some() => Message::Answer,
            (None, _) => {
                return Err(invalid_request(
                    "the message has no method, and is not a response (no result or error)",
                ));
            }
        };
        let tool = match (message, peek.method.as_deref()) {
            (Message::Request, Some("tools/call")) => peek.params.and_then(|params| params.name),
            _ => None,
        };
        Ok(Peeked { message, tool })
    }
}

/// -32700, for a body that is not JSON.
fn parse_error(error: &serde_json::Error) -> Refusal {
    json_rpc_error(-32700, &format!("Parse error: {error}"))
}

/// -32600, for JSON that is not a JSON-RPC message.
fn invalid_request(why: &str) -> Refusal {
    json_rpc_error(-32600, &format!("Invalid Request: {why}"))
}

/// A JSON-RPC error response with a null id (the request's could not be
/// read), as HTTP 400: the streamable HTTP transport answers a POST it
/// cannot accept with 400, "optionally" a JSON-RPC error
/// (<https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server>).
fn json_rpc_error(code: i32, message: &str) -> Refusal {
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
    Refusal::new(StatusCode::BAD_REQUEST, body.to_string())
        .with_header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(body: &str) -> serde_json::Value {
        let Err(Refusal(response)) = Message::of(body.as_bytes()) else {
            panic!("{body} was accepted");
        };
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(response.headers()[CONTENT_TYPE], "application/json");
        let body = futures_body(*response);
        serde_json::from_slice(&body).expect("a JSON-RPC error")
    }

    fn futures_body(response: super::super::HttpResponse) -> Vec<u8> {
        use http_body_util::BodyExt;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime
            .block_on(response.into_body().collect())
            .unwrap()
            .to_bytes()
            .to_vec()
    }

    fn accepted(body: &str) -> Message {
        match Message::of(body.as_bytes()) {
            Ok(peeked) => peeked.message,
            Err(Refusal(response)) => panic!("{body} was refused: {}", response.status()),
        }
    }

    #[test]
    fn messages_are_told_apart() {
        let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        assert_eq!(accepted(initialize), Message::Initialize);
        let call = r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"arguments":{"x":[1,{"y":null}]}}}"#;
        assert_eq!(accepted(call), Message::Request);
        let cancelled = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#;
        assert_eq!(accepted(cancelled), Message::Answer);
        let response = r#"{"jsonrpc":"2.0","id":3,"result":{}}"#;
        assert_eq!(accepted(response), Message::Answer);
        assert_eq!(accepted(r#" [{"jsonrpc":"2.0"}]"#), Message::Request);
    }

    #[test]
    fn answers_and_cancellations_are_about_a_request() {
        let about = |body: &str| match Message::of(body.as_bytes()) {
            Ok(peeked) => peeked.message == Message::Answer,
            Err(Refusal(response)) => panic!("{body} was refused: {}", response.status()),
        };
        assert!(about(r#"{"jsonrpc":"2.0","id":3,"result":{"action":"accept"}}"#));
        assert!(about(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}"#));
        assert!(about(
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#
        ));
        assert!(!about(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#));
        assert!(!about(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#));
        assert!(!about(r#"[{"jsonrpc":"2.0","id":3,"result":{}}]"#));
    }

    #[test]
    fn a_calls_tool_is_read_and_params_of_any_shape_pass() {
        let peek = |body: &str| match Message::of(body.as_bytes()) {
            Ok(peeked) => (peeked.message, peeked.tool.map(Cow::into_owned)),
            Err(Refusal(response)) => panic!("{body} was refused: {}", response.status()),
        };
        let tool = |body: &str| peek(body).1;
        let call = r#"{"params":{"arguments":{"name":"x"},"name":"write"},"jsonrpc":"2.0","id":1,"method":"tools/call"}"#;
        assert_eq!(tool(call).as_deref(), Some("write"));
        let escaped =
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wr\u0069te"}}"#;
        assert_eq!(tool(escaped).as_deref(), Some("write"));
        for params in [
            "[1]",
            "\"x\"",
            "7",
            "null",
            r#"{"name":7}"#,
            r#"{"name":{"a":[1]}}"#,
        ] {
            let body =
                format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params}}}"#);
            assert_eq!(peek(&body), (Message::Request, None), "{body}");
        }
        let listing = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"x"}}"#;
        assert_eq!(tool(listing), None);
    }

    #[test]
    fn text_that_is_not_json_is_a_parse_error() {
        let error = refused(r#"{"jsonrpc":"2.0","id":2,"#);
        assert_eq!(error["error"]["code"], -32700);
        assert_eq!(error["id"], serde_json::Value::Null);
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("Parse error: EOF while parsing"),
            "{error}"
        );
        assert_eq!(refused("[1,")["error"]["code"], -32700);
        assert_eq!(refused("")["error"]["code"], -32700);
    }

    #[test]
    fn json_that_is_not_a_message_is_an_invalid_request() {
        for body in [
            "\"hello\"",
            "42",
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"method":7,"id":1}"#,
        ] {
            assert_eq!(refused(body)["error"]["code"], -32600, "{body}");
        }
    }
}
