//! Batches, concurrency and the executor's failure paths beyond the five
//! outcomes of `seed.rs`.

use crate::support::registry_of;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tool_core::{
    DynamicTool, ExecutionMode, RunOptions, Tool, ToolCall, ToolContext, ToolError, ToolOutput,
    ToolParams, ToolRegistry, ToolResultMessage, execute_tool_call, execute_tool_calls,
    params::ParamPath, params::ParamValue,
};

#[derive(ToolParams)]
struct SleepParams {
    millis: u64,
}

/// Sleeps, recording how many calls ran at the same time.
#[derive(Clone, Default)]
struct Sleep {
    running: Arc<AtomicUsize>,
    most_at_once: Arc<AtomicUsize>,
}

impl Tool for Sleep {
    type Params = SleepParams;
    type Details = Value;

    fn name(&self) -> &str {
        "sleep"
    }

    fn description(&self) -> &str {
        "Sleeps"
    }

    async fn execute(
        &self,
        params: SleepParams,
        ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_at_once.fetch_max(now, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(params.millis)).await;
        self.running.fetch_sub(1, Ordering::SeqCst);
        Ok(ToolOutput::text(ctx.call_id))
    }
}

/// Runs one call against a registry holding `tool` alone.
async fn run_alone(tool: impl Tool, call: &ToolCall) -> ToolResultMessage {
    execute_tool_call(call, &registry_of(tool), RunOptions::default()).await
}

fn sleep_calls() -> Vec<ToolCall> {
    // Later calls finish first, so order can only come from the executor.
    (0..5)
        .map(|i| ToolCall::new(format!("c{i}"), "sleep", json!({"millis": 50 - i * 10})))
        .chain([ToolCall::new("c5", "missing", json!({}))])
        .collect()
}

/// Runs `sleep_calls()` in `mode` against a fresh `Sleep`; checks the
/// results answer in call order, and gives them with how many calls ran at
/// the same time.
async fn run_sleep_batch(mode: ExecutionMode) -> (Vec<ToolResultMessage>, usize) {
    let sleep = Sleep::default();
    let tools = registry_of(sleep.clone());
    let results = execute_tool_calls(&sleep_calls(), &tools, RunOptions::default(), mode).await;
    let ids: Vec<&str> = results.iter().map(|r| r.tool_call_id.as_str()).collect();
    assert_eq!(ids, ["c0", "c1", "c2", "c3", "c4", "c5"], "{mode:?}");
    (results, sleep.most_at_once.load(Ordering::SeqCst))
}

#[tokio::test]
async fn parallel_batches_run_together_and_answer_in_call_order() {
    let (results, most_at_once) = run_sleep_batch(ExecutionMode::Parallel).await;
    assert_eq!(results[2].content[0].as_text(), Some("c2"));
    assert!(results[5].is_error);
    assert_eq!(most_at_once, 5);
}

#[tokio::test]
async fn sequential_batches_run_one_at_a_time() {
    let (_, most_at_once) = run_sleep_batch(ExecutionMode::Sequential).await;
    assert_eq!(most_at_once, 1);
}

#[tokio::test]
async fn an_empty_batch_has_no_results() {
    let tools = ToolRegistry::new();
    let results =
        execute_tool_calls(&[], &tools, RunOptions::default(), ExecutionMode::Parallel).await;
    assert!(results.is_empty());
}

/// A field type whose parser panics: a bug in user code, still answered.
struct Fragile;

impl ParamValue for Fragile {
    fn schema() -> Value {
        json!({})
    }
    fn parse_value(
        _: &Value,
        _: &ParamPath<'_>,
        _: &mut tool_core::params::ParseContext,
    ) -> Option<Self> {
        panic!("fragile parser")
    }
    fn to_json(&self) -> Value {
        Value::Null
    }
}

#[derive(ToolParams)]
struct FragileParams {
    input: Fragile,
}

struct UsesFragile;

impl Tool for UsesFragile {
    type Params = FragileParams;
    type Details = ();
    fn name(&self) -> &str {
        "fragile"
    }
    fn description(&self) -> &str {
        "Has a panicking parser"
    }
    async fn execute(&self, _: FragileParams, _: ToolContext) -> Result<ToolOutput<()>, ToolError> {
        Ok(ToolOutput::text("unreachable"))
    }
}

#[tokio::test]
async fn a_panic_while_parsing_is_paired() {
    let call = ToolCall::new("p", "fragile", json!({"input": 1}));
    let result = run_alone(UsesFragile, &call).await;
    assert!(result.is_error);
    assert_eq!(
        result.content[0].as_text(),
        Some("Tool fragile failed: panicked: fragile parser")
    );
}

/// Details that serde cannot turn into JSON (a map with non-string keys).
struct BadDetails;

impl Tool for BadDetails {
    type Params = serde_json::Map<String, Value>;
    type Details = HashMap<Vec<u8>, u8>;
    fn name(&self) -> &str {
        "bad_details"
    }
    fn description(&self) -> &str {
        "Returns unserializable details"
    }
    async fn execute(
        &self,
        _: serde_json::Map<String, Value>,
        _: ToolContext,
    ) -> Result<ToolOutput<HashMap<Vec<u8>, u8>>, ToolError> {
        Ok(ToolOutput::text("x").with_details(HashMap::from([(vec![1], 1)])))
    }
}

#[tokio::test]
async fn unserializable_details_are_a_paired_error() {
    let call = ToolCall::new("d", "bad_details", json!({}));
    let result = run_alone(BadDetails, &call).await;
    assert!(result.is_error);
    assert_eq!(
        result.content[0].as_text(),
        Some("Tool bad_details failed: its details could not be serialized: key must be a string")
    );
}

#[derive(Debug)]
struct Wrapped(std::io::Error);

impl std::fmt::Display for Wrapped {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        out.write_str("reading config")
    }
}

impl std::error::Error for Wrapped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

#[tokio::test]
async fn error_messages_include_their_causes() {
    let config = DynamicTool::new("config", "Reads config", |_, _| async {
        Err(Wrapped(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no such file",
        ))
        .into())
    });
    let call = ToolCall::new("e", "config", json!({}));
    let result = run_alone(config, &call).await;
    assert_eq!(
        result.details,
        Some(json!({"error": "reading config: no such file"}))
    );
}

#[tokio::test]
async fn dynamic_tools_get_any_object_and_refuse_the_rest() {
    let tools = registry_of(DynamicTool::new(
        "keys",
        "Counts keys",
        |args, _| async move { Ok(ToolOutput::text(args.len().to_string())) },
    ));
    // A string is read as JSON text (OpenAI sends arguments so): the
    // second is not JSON, and the error says where it breaks.
    for (arguments, answer) in [
        (json!({"a": 1, "b": 2}), "2"),
        (
            json!("text"),
            "Tool keys failed: arguments: invalid JSON: expected ident at line 1 column 2",
        ),
        (
            json!("[1, 2]"),
            "Tool keys failed: arguments: expected object, got array [1,2]",
        ),
    ] {
        let call = ToolCall::new("k", "keys", arguments);
        let result = execute_tool_call(&call, &tools, RunOptions::default()).await;
        assert_eq!(
            result.content[0].as_text(),
            Some(answer),
            "{}",
            call.arguments
        );
    }
}

#[test]
fn prepared_calls_show_the_arguments_the_tool_will_get() {
    let tools = registry_of(Sleep::default());
    let prepared = tools
        .get("sleep")
        .unwrap()
        .prepare(&json!({"millis": 5.0, "ignored": true}))
        .unwrap();
    assert_eq!(prepared.arguments(), json!({"millis": 5}));
}
