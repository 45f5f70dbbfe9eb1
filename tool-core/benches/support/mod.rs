//! Parameter structs of three sizes, and one made of tagged enums, each
//! deriving both `ToolParams` and serde's `Deserialize` from the same
//! definition, and matching arguments; the walkthrough's echo tool and a call line
//! for it, for the executor benches; results to write as JSON.

#![allow(dead_code)]

pub(crate) mod stream;
pub(crate) mod stream_linear;
pub(crate) mod variants;

use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroU32;
use tool_core::{
    Content, FailureKind, ToolCall, ToolError, ToolOutput, ToolParams, ToolRegistry,
    ToolResultMessage, repair::Repair, tool, tools,
};

/// One field: the echo request.
#[derive(ToolParams, Deserialize, Debug)]
pub(crate) struct Small {
    pub value: String,
}

/// The echo request with `label` and `limit`, plus a list.
#[derive(ToolParams, Deserialize, Debug)]
pub(crate) struct Medium {
    pub value: String,
    pub label: Option<String>,
    pub limit: Option<NonZeroU32>,
    pub tags: Vec<String>,
}

#[derive(ToolParams, Deserialize, Debug)]
#[param(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub(crate) enum Sort {
    Relevance,
    Newest,
    Oldest,
}

#[derive(ToolParams, Deserialize, Debug)]
pub(crate) struct Person {
    pub name: String,
    pub email: String,
    pub age: Option<u8>,
}

#[derive(ToolParams, Deserialize, Debug)]
pub(crate) struct Range {
    pub from: i64,
    pub to: i64,
}

/// Twenty fields: scalars, options, lists, maps, nested structs, an enum.
#[derive(ToolParams, Deserialize, Debug)]
pub(crate) struct Large {
    pub query: String,
    pub limit: u32,
    pub offset: Option<u64>,
    pub verbose: bool,
    pub threshold: f64,
    pub sort: Sort,
    pub tags: Vec<String>,
    pub ids: Vec<u64>,
    pub filters: BTreeMap<String, String>,
    pub weights: HashMap<String, f64>,
    pub author: Person,
    pub reviewers: Vec<Person>,
    pub range: Range,
    pub language: Option<String>,
    pub region: Option<String>,
    pub include_drafts: bool,
    pub max_depth: u8,
    pub page_token: Option<String>,
    pub scores: Vec<f32>,
    pub note: String,
}

pub(crate) fn small_args() -> Value {
    json!({"value": "Pi"})
}

pub(crate) fn medium_args() -> Value {
    json!({"value": "Pi", "label": "answer", "limit": 2, "tags": ["math", "constant", "greek"]})
}

/// Three problems: a wrong type, another wrong type, a value out of range.
pub(crate) fn medium_bad_args() -> Value {
    json!({"value": 1, "label": 2, "limit": 0, "tags": []})
}

pub(crate) fn large_args() -> Value {
    json!({
        "query": "typed tool calling in rust",
        "limit": 20,
        "offset": 40,
        "verbose": false,
        "threshold": 0.75,
        "sort": "newest",
        "tags": ["rust", "llm", "agents", "json-schema"],
        "ids": [1, 2, 3, 5, 8, 13, 21, 34],
        "filters": {"lang": "en", "license": "mit", "status": "published"},
        "weights": {"title": 2.0, "body": 1.0, "tags": 0.5},
        "author": {"name": "Ada Lovelace", "email": "ada@example.org", "age": 36},
        "reviewers": [
            {"name": "Alan Turing", "email": "alan@example.org"},
            {"name": "Grace Hopper", "email": "grace@example.org", "age": 85}
        ],
        "range": {"from": -100, "to": 100},
        "language": "en",
        "include_drafts": true,
        "max_depth": 3,
        "scores": [0.5, 0.25, 0.125],
        "note": "benchmark input of a realistic size"
    })
}

/// One step of a [`Script`]: an internally tagged enum (`{"action":
/// "click", "x": 10, ...}`) whose variants have different shapes.
#[derive(ToolParams, Deserialize, Debug)]
#[param(tag = "action", rename_all = "snake_case")]
#[serde(tag = "action", rename_all = "snake_case")]
pub(crate) enum Step {
    Click {
        x: u32,
        y: u32,
        double: Option<bool>,
    },
    Type {
        text: String,
    },
    Scroll {
        dx: i32,
        dy: i32,
    },
    Wait {
        ms: u64,
    },
}

/// Enum-heavy: a name and a list of internally tagged steps.
#[derive(ToolParams, Deserialize, Debug)]
pub(crate) struct Script {
    pub name: String,
    pub steps: Vec<Step>,
}

/// Eight steps, every variant at least once, `double` present and absent.
pub(crate) fn script_args() -> Value {
    json!({
        "name": "log in",
        "steps": [
            {"action": "click", "x": 120, "y": 48},
            {"action": "type", "text": "ada@example.org"},
            {"action": "click", "x": 120, "y": 96, "double": false},
            {"action": "type", "text": "correct horse battery staple"},
            {"action": "wait", "ms": 250},
            {"action": "scroll", "dx": 0, "dy": -400},
            {"action": "click", "x": 640, "y": 360, "double": true},
            {"action": "wait", "ms": 1000}
        ]
    })
}

/// Three problems: a misspelled tag, a wrong type, a value out of range.
pub(crate) fn script_bad_args() -> Value {
    json!({
        "name": "log in",
        "steps": [
            {"action": "clik", "x": 120, "y": 48},
            {"action": "type", "text": 42},
            {"action": "wait", "ms": -1}
        ]
    })
}

/// The walkthrough's echo call, as one JSON line.
pub(crate) const LINE: &str = r#"{"type":"toolCall","id":"call-1","name":"echo","arguments":{"value":"Pi","ignored":"drop me"}}"#;

#[derive(serde::Serialize)]
pub(crate) struct EchoDetails {
    source: &'static str,
}

/// Echo one value
#[tool]
async fn echo(value: String) -> Result<ToolOutput<EchoDetails>, ToolError> {
    Ok(ToolOutput::new(vec![Content::text(value)]).with_details(EchoDetails { source: "echo" }))
}

/// The same echo as a method of a `#[tools]` impl: what a stateful tool
/// costs over a function, beyond the `Arc` deref.
pub(crate) struct EchoBox {
    source: &'static str,
}

#[tools]
impl EchoBox {
    /// Echo one value
    #[tool]
    async fn echo(&self, value: String) -> Result<ToolOutput<EchoDetails>, ToolError> {
        Ok(
            ToolOutput::new(vec![Content::text(value)]).with_details(EchoDetails {
                source: self.source,
            }),
        )
    }
}

/// A registry holding the echo method of an [`EchoBox`].
pub(crate) fn echo_box_registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools
        .register_all(EchoBox { source: "echo" })
        .expect("one tool");
    tools
}

/// A registry holding only the echo tool.
pub(crate) fn echo_registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(EchoTool).expect("one tool");
    tools
}

/// A registry holding the echo tool as a `DynamicTool`: with a schema (as
/// an MCP server would list echo's, checked on every call) or without (any
/// object).
pub(crate) fn echo_dynamic_registry(schema: bool) -> ToolRegistry {
    let echo = tool_core::DynamicTool::new("echo", "Echo one value", |args, _ctx| async move {
        let value = args
            .get("value")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        Ok(ToolOutput::new(vec![Content::text(value)]).with_details(json!({"source": "echo"})))
    });
    let echo = if schema {
        // Not the derived echo's schema: it closes the object
        // (`additionalProperties: false`), where the line sends a key more.
        echo.try_with_parameters(json!({
            "type": "object",
            "properties": {"value": {"type": "string", "description": "The value to echo"}},
            "required": ["value"],
        }))
        .expect("the schema compiles")
    } else {
        echo
    };
    let mut tools = ToolRegistry::new();
    tools.register(echo).expect("one tool");
    tools
}

/// The results the `result_*` variants write: the echo call's (the
/// executor line's answer), a failure with its details, and a tool's long
/// text (4 KiB of lines with quotes, which are escaped).
pub(crate) fn results() -> [(&'static str, ToolResultMessage); 3] {
    let call = ToolCall::new("call-1", "echo", json!({}));
    let mut echo = ToolResultMessage::new(&call, vec![Content::text("Pi")])
        .with_details(json!({"source": "echo"}));
    echo.timestamp = 1_764_000_000_000;
    let mut failure = ToolResultMessage::failure(&call, "1 problem: `value`: missing field");
    failure.timestamp = echo.timestamp;
    let line = "a line of a file, with \"quoted\" words in it\n";
    let mut long = echo.clone();
    long.content = vec![Content::text(line.repeat(4096 / line.len()))];
    long.details = None;
    [("echo", echo), ("failure", failure), ("text_4k", long)]
}

/// A result as serde's derive writes it (the wire shape's attributes, as
/// `ToolResultMessage` is specified): what `serde_json::to_vec(&result)`
/// cost before the result wrote its own text.
#[derive(serde::Serialize)]
#[serde(tag = "role", rename = "toolResult", rename_all = "camelCase")]
pub(crate) struct DerivedResult<'a> {
    tool_call_id: &'a str,
    tool_name: &'a str,
    content: &'a [Content],
    #[serde(skip_serializing_if = "Option::is_none")]
    details: &'a Option<Value>,
    is_error: bool,
    #[serde(rename = "failure", skip_serializing_if = "retry_or_none")]
    failure_kind: &'a Option<FailureKind>,
    #[serde(skip_serializing_if = "<[Repair]>::is_empty")]
    repairs: &'a [Repair],
    timestamp: u64,
}

fn retry_or_none(failure: &&Option<FailureKind>) -> bool {
    matches!(failure, None | Some(FailureKind::Retry))
}

impl<'a> From<&'a ToolResultMessage> for DerivedResult<'a> {
    fn from(result: &'a ToolResultMessage) -> Self {
        DerivedResult {
            tool_call_id: &result.tool_call_id,
            tool_name: &result.tool_name,
            content: &result.content,
            details: &result.details,
            is_error: result.is_error,
            failure_kind: &result.failure_kind,
            repairs: &result.repairs,
            timestamp: result.timestamp,
        }
    }
}
