//! The cases of the echo walkthrough, the contract's first example: the
//! echo schema, parse, the registry, and the executor's five outcomes, in
//! the shapes of `docs/wire-format.md`.

use crate::support::registry_of;
use serde_json::{Value, json};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tests::wire::{result_json, without_timestamp};
use tool_core::{
    CancellationToken, Content, DynamicTool, RunOptions, Tool, ToolCall, ToolContext, ToolError,
    ToolOutput, ToolParams, ToolRegistry, execute_tool_call,
};

#[derive(ToolParams, Debug, PartialEq)]
struct EchoParams {
    value: String,
}

#[derive(serde::Serialize)]
struct EchoDetails {
    source: &'static str,
}

/// The walkthrough's echo, counting its executions so tests can prove that
/// parse runs before execute. [`Echo::exploding`] is the echo that always
/// fails, registered in a registry of its own.
#[derive(Default)]
struct Echo {
    executions: Arc<AtomicUsize>,
    explodes: bool,
}

impl Echo {
    fn exploding() -> Self {
        Echo {
            explodes: true,
            ..Echo::default()
        }
    }
}

impl Tool for Echo {
    type Params = EchoParams;
    type Details = EchoDetails;

    fn name(&self) -> &str {
        "echo"
    }

    fn description(&self) -> &str {
        "Echo one value"
    }

    async fn execute(
        &self,
        params: EchoParams,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<EchoDetails>, ToolError> {
        self.executions.fetch_add(1, Ordering::SeqCst);
        if self.explodes {
            return Err("exploded".into());
        }
        Ok(ToolOutput::new(vec![Content::text(params.value)])
            .with_details(EchoDetails { source: "echo" }))
    }
}

fn echo_call() -> ToolCall {
    ToolCall::new(
        "call-1",
        "echo",
        json!({"value": "Pi", "ignored": "drop me"}),
    )
}

/// The echo schema.
fn echo_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"value": {"type": "string"}},
        "required": ["value"],
        "additionalProperties": false,
    })
}

fn echo_registry() -> ToolRegistry {
    registry_of(Echo::default())
}

/// Runs `call` against `tools`; its result as JSON without the timestamp.
async fn answer(call: &ToolCall, tools: &ToolRegistry) -> Value {
    without_timestamp(&execute_tool_call(call, tools, RunOptions::default()).await)
}

/// A failed result: `Tool <name> failed: <error>`, the error again in the
/// details.
fn failure_json(id: &str, name: &str, error: &str) -> Value {
    result_json(
        id,
        name,
        &format!("Tool {name} failed: {error}"),
        json!({"error": error}),
        true,
    )
}

#[test]
fn echo_schema_is_exactly_the_seeds() {
    assert_eq!(
        serde_json::to_string(&EchoParams::json_schema()).unwrap(),
        r#"{"type":"object","properties":{"value":{"type":"string"}},"required":["value"],"additionalProperties":false}"#
    );
}

#[test]
fn parse_drops_undeclared_keys_and_leaves_the_input_untouched() {
    let arguments = echo_call().arguments;
    let before = arguments.clone();
    let parsed = EchoParams::parse(&arguments).unwrap();
    assert_eq!(parsed, EchoParams { value: "Pi".into() });
    assert_eq!(arguments, before);
}

#[derive(ToolParams, Debug, PartialEq)]
struct Request {
    value: String,
    label: Option<String>,
    limit: Option<NonZeroU32>,
}

#[test]
fn request_schema_lists_only_value_as_required() {
    assert_eq!(
        Request::json_schema(),
        json!({
            "type": "object",
            "properties": {
                "value": {"type": "string"},
                "label": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 4294967295u32},
            },
            "required": ["value"],
            "additionalProperties": false,
        })
    );
}

#[test]
fn request_parses_full_and_bare() {
    let full = Request::parse(&json!({
        "value": "Pi",
        "label": "answer",
        "limit": 2,
        "ignored": "drop me",
    }))
    .unwrap();
    assert_eq!(
        full,
        Request {
            value: "Pi".into(),
            label: Some("answer".into()),
            limit: NonZeroU32::new(2),
        }
    );
    let bare = Request::parse(&json!({"value": "Pi"})).unwrap();
    assert_eq!(
        bare,
        Request {
            value: "Pi".into(),
            label: None,
            limit: None,
        }
    );
}

#[test]
fn request_rejects_the_seeds_bad_values() {
    let cases = [
        (json!(null), "arguments: expected object, got null"),
        (json!([]), "arguments: expected object, got array []"),
        (json!({"value": 1}), "value: expected string, got number 1"),
        (
            json!({"value": "Pi", "limit": 0}),
            "limit: expected integer >= 1, got 0",
        ),
    ];
    for (arguments, message) in cases {
        let error = Request::parse(&arguments).unwrap_err();
        assert_eq!(error.to_string(), message, "for {arguments}");
    }
}

#[test]
fn registry_gives_definitions_and_whole_tools() {
    let tools = echo_registry();
    assert_eq!(
        serde_json::to_value(tools.definitions()).unwrap(),
        json!([{
            "name": "echo",
            "description": "Echo one value",
            "parameters": echo_schema(),
        }])
    );
    let echo = tools.get("echo").unwrap();
    assert_eq!(echo.name(), "echo");
    assert_eq!(echo.parameters(), &echo_schema());
    assert_eq!(
        echo.prepare(&json!({"value": "Pi"})).unwrap().arguments(),
        json!({"value": "Pi"})
    );
    assert!(tools.get("missing").is_none());
}

#[test]
fn registry_refuses_a_second_tool_of_the_same_name() {
    let mut tools = echo_registry();
    let error = tools.register(Echo::exploding()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Tool already exists: echo (registered from tool echo; the new one is from tool echo); \
         give one side a prefix (Toolset::prefixed) or rename it (Toolset::renamed)"
    );
    assert_eq!(tools.len(), 1);
}

#[test]
fn registries_share_nothing() {
    let first = echo_registry();
    let mut second = registry_of(Echo::exploding());
    second
        .register(DynamicTool::new("upper", "Upper-case", |_, _| async {
            Ok(ToolOutput::text(""))
        }))
        .unwrap();
    assert_eq!(first.len(), 1);
    assert!(first.get("upper").is_none());
    assert_eq!(second.len(), 2);
}

#[tokio::test]
async fn executor_answers_echo_exactly() {
    assert_eq!(
        answer(&echo_call(), &echo_registry()).await,
        result_json("call-1", "echo", "Pi", json!({"source": "echo"}), false)
    );
}

#[tokio::test]
async fn wrong_argument_type_stops_before_execute() {
    let echo = Echo::default();
    let executions = echo.executions.clone();
    let call = ToolCall::new("call-1", "echo", json!({"value": 1}));
    assert_eq!(
        answer(&call, &registry_of(echo)).await,
        failure_json("call-1", "echo", "value: expected string, got number 1")
    );
    assert_eq!(executions.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn unknown_tool_keeps_the_requested_name() {
    let call = ToolCall::new("call-1", "missing", json!({}));
    assert_eq!(
        answer(&call, &echo_registry()).await,
        failure_json("call-1", "missing", "unknown tool")
    );
}

#[tokio::test]
async fn tool_error_is_paired() {
    assert_eq!(
        answer(&echo_call(), &registry_of(Echo::exploding())).await,
        failure_json("call-1", "echo", "exploded")
    );
}

struct Boom;

impl Tool for Boom {
    type Params = EchoParams;
    type Details = ();

    fn name(&self) -> &str {
        "boom"
    }

    fn description(&self) -> &str {
        "Panics"
    }

    async fn execute(
        &self,
        params: EchoParams,
        _: ToolContext,
    ) -> Result<ToolOutput<()>, ToolError> {
        tokio::task::yield_now().await;
        panic!("boom: {}", params.value)
    }
}

#[tokio::test]
async fn tool_panic_is_paired() {
    let call = ToolCall::new("call-9", "boom", json!({"value": "Pi"}));
    assert_eq!(
        answer(&call, &registry_of(Boom)).await,
        failure_json("call-9", "boom", "panicked: boom: Pi")
    );
}

/// The call id and signal a tool was given.
type Seen = Arc<Mutex<Option<(String, Option<CancellationToken>)>>>;

/// `inspect`: reports what its context holds, then fails as a domain error
/// with content and details.
struct Inspect {
    seen: Seen,
}

#[derive(serde::Serialize)]
struct Phase {
    phase: &'static str,
}

impl Tool for Inspect {
    type Params = EchoParams;
    type Details = Phase;

    fn name(&self) -> &str {
        "inspect"
    }

    fn description(&self) -> &str {
        "Shows its context"
    }

    async fn execute(
        &self,
        params: EchoParams,
        ctx: ToolContext,
    ) -> Result<ToolOutput<Phase>, ToolError> {
        *self.seen.lock().unwrap() = Some((ctx.call_id.clone(), ctx.signal.clone()));
        ctx.report_progress(vec![Content::text(format!("progress:{}", params.value))]);
        Ok(
            ToolOutput::new(vec![Content::text(format!("done:{}", params.value))])
                .with_details(Phase {
                    phase: "domain-error",
                })
                .into_error(),
        )
    }
}

#[tokio::test]
async fn inspect_sees_call_id_signal_and_progress_and_keeps_its_domain_error() {
    let seen = Seen::default();
    let tools = registry_of(Inspect { seen: seen.clone() });

    let signal = CancellationToken::new();
    let progress: Arc<Mutex<Vec<Vec<Content>>>> = Arc::default();
    let sink = progress.clone();
    let ctx = RunOptions::new()
        .with_signal(signal.clone())
        .with_progress(move |event| sink.lock().unwrap().push(event.content));

    let call = ToolCall::new("ctx", "inspect", json!({"value": "Pi"}));
    let result = execute_tool_call(&call, &tools, ctx).await;

    // The tool got the call's id and the caller's signal: cancelling the
    // caller's token cancels the one the tool holds.
    let (call_id, tool_signal) = seen.lock().unwrap().clone().unwrap();
    assert_eq!(call_id, "ctx");
    let tool_signal = tool_signal.expect("the tool got a signal");
    assert!(!tool_signal.is_cancelled());
    signal.cancel();
    assert!(tool_signal.is_cancelled());
    assert_eq!(
        *progress.lock().unwrap(),
        vec![vec![Content::text("progress:Pi")]]
    );
    assert_eq!(
        without_timestamp(&result),
        result_json(
            "ctx",
            "inspect",
            "done:Pi",
            json!({"phase": "domain-error"}),
            true
        )
    );
}

#[tokio::test]
async fn a_context_cannot_override_the_call_id() {
    let seen = Seen::default();
    let tools = registry_of(Inspect { seen: seen.clone() });

    // A tool passing its own context on to nested calls: the id "evil" is
    // dropped on the way, and each nested call gets its own.
    let outer = ToolContext::new("evil");
    let call = ToolCall::new("call-1", "inspect", json!({"value": "Pi"}));
    let result = execute_tool_call(&call, &tools, RunOptions::from(outer)).await;

    assert_eq!(result.tool_call_id, "call-1");
    let (call_id, tool_signal) = seen.lock().unwrap().clone().unwrap();
    assert_eq!(call_id, "call-1");
    assert!(tool_signal.is_none());
}
