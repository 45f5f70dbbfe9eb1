//! Programmatic tool calling, as the providers document it: tools marked
//! callable from code are written with `allowed_callers` and the tool that
//! runs the code; a call made by the code is read with its origin, through
//! `read_call` and the streaming accumulators alike; its result goes back in
//! the shape the code receives (text only for Anthropic, the `caller`
//! copied for OpenAI). The payloads are the documentation's examples
//! (Anthropic: platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling,
//! steps 2 and 3; OpenAI: developers.openai.com/api/docs/guides/tools-programmatic-tool-calling).

use serde_json::{Value, json};
use tool_core::providers::{StreamEvent, Strict, anthropic, openai_responses};
use tool_core::toolset::Toolset;
use tool_core::{
    CallOrigin, Callers, Content, DynamicTool, RunOptions, ToolDefinition, ToolOutput,
    ToolRegistry, execute_tool_call,
};

fn registry() -> ToolRegistry {
    let tool = |name: &str| {
        DynamicTool::new(name, "Query the database", |_args, _ctx| async {
            Ok(ToolOutput::new(vec![
                Content::text(r#"[{"customer_id": "C1", "revenue": 45000}]"#),
                Content::image(b"\x89PNG", "image/png"),
            ]))
        })
    };
    let mut tools = ToolRegistry::new();
    tools
        .register_all(
            Toolset::new("data")
                .with(tool("query_database"))
                .callers(Callers::BOTH),
        )
        .unwrap();
    tools.register(tool("direct_only")).unwrap();
    tools
}

fn program() -> Option<CallOrigin> {
    Some(CallOrigin::Code {
        program: "srvtoolu_abc123".to_owned(),
    })
}

#[test]
fn anthropic_writes_allowed_callers_and_the_code_execution_tool() {
    let definitions = registry().definitions();
    let written = anthropic::tools(&definitions, Strict::Off).value;
    let names: Vec<&str> = written
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["direct_only", "query_database", "code_execution"]);
    assert!(written[0].get("allowed_callers").is_none());
    assert_eq!(
        written[1]["allowed_callers"],
        json!(["direct", "code_execution_20260120"])
    );
    assert_eq!(
        written[2],
        json!({"type": "code_execution_20260120", "name": "code_execution"})
    );
    // Strict tools cannot be called from code: sent without, said so.
    let strict = anthropic::tools(&definitions, Strict::On);
    assert_eq!(strict.value[1].get("strict"), None);
    assert!(
        strict
            .diagnostics
            .iter()
            .any(|diagnostic| diagnostic.tool == "query_database"
                && diagnostic.message.contains("programmatic tool calling")),
        "{:?}",
        strict.diagnostics
    );
    // Nothing callable from code: no code execution tool.
    let plain = [ToolDefinition::new(
        "echo",
        "Echo",
        json!({"type": "object"}),
    )];
    assert_eq!(
        anthropic::tools(&plain, Strict::Off)
            .value
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn anthropic_reads_a_call_from_code_and_answers_it_with_text() {
    // Step 2's response: the tool_use the code made.
    let block = json!({"type": "tool_use", "id": "toolu_def456", "name": "query_database",
        "input": {"sql": "<sql>"},
        "caller": {"type": "code_execution_20260120", "tool_id": "srvtoolu_abc123"}});
    let call = anthropic::read_call(&block).unwrap();
    assert_eq!(call.origin, program());
    let result = execute_tool_call(&call, &registry(), RunOptions::new()).await;
    assert_eq!(result.origin, program());
    // Step 3: a tool_result of text; the image becomes a note.
    let written = anthropic::write_result(&result);
    assert_eq!(written["tool_use_id"], "toolu_def456");
    let kinds: Vec<&Value> = written["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|block| &block["type"])
        .collect();
    assert_eq!(kinds, [&json!("text"), &json!("text")]);
    assert_eq!(written["content"][1]["text"], "[image: image/png, 4 bytes]");

    // A direct call: no origin, and its image goes as an image.
    let direct = json!({"type": "tool_use", "id": "toolu_1", "name": "direct_only", "input": {},
        "caller": {"type": "direct"}});
    let call = anthropic::read_call(&direct).unwrap();
    assert_eq!(call.origin, None);
    let result = execute_tool_call(&call, &registry(), RunOptions::new()).await;
    assert_eq!(
        anthropic::write_result(&result)["content"][1]["type"],
        "image"
    );
}

#[test]
fn anthropics_stream_keeps_the_caller_of_its_start() {
    let mut stream = anthropic::StreamAccumulator::new();
    stream
        .push(
            &json!({"type": "content_block_start", "index": 2, "content_block": {
            "type": "tool_use", "id": "toolu_def456", "name": "query_database", "input": {},
            "caller": {"type": "code_execution_20260120", "tool_id": "srvtoolu_abc123"}}}),
        )
        .unwrap();
    stream
        .push(&json!({"type": "content_block_delta", "index": 2,
            "delta": {"type": "input_json_delta", "partial_json": "{\"sql\": \"<sql>\"}"}}))
        .unwrap();
    let events = stream
        .push(&json!({"type": "content_block_stop", "index": 2}))
        .unwrap();
    let finished = events.iter().find_map(|event| match event {
        StreamEvent::Finished { call, .. } => Some(call.clone()),
        _ => None,
    });
    let call = finished.expect("the call finished");
    assert_eq!(call.origin, program());
    assert_eq!(call.arguments, json!({"sql": "<sql>"}));
}

#[tokio::test]
async fn openai_writes_allowed_callers_reads_the_program_and_copies_its_caller() {
    let written = openai_responses::tools(&registry().definitions(), Strict::Off).value;
    assert!(written[0].get("allowed_callers").is_none());
    assert_eq!(
        written[1]["allowed_callers"],
        json!(["direct", "programmatic"])
    );
    assert_eq!(written[2], json!({"type": "programmatic_tool_calling"}));

    let item = json!({"type": "function_call", "id": "fc_123", "call_id": "call_inventory_123",
        "name": "query_database", "arguments": "{\"sku\":\"sku_123\"}",
        "caller": {"type": "program", "caller_id": "call_prog_123"}});
    let call = openai_responses::read_call(&item).unwrap();
    let origin = Some(CallOrigin::Code {
        program: "call_prog_123".to_owned(),
    });
    assert_eq!(call.origin, origin);
    let result = execute_tool_call(&call, &registry(), RunOptions::new()).await;
    let output = openai_responses::write_result(&result);
    assert_eq!(
        output["caller"],
        json!({"type": "program", "caller_id": "call_prog_123"})
    );
    assert_eq!(output["call_id"], "call_inventory_123");
    assert!(
        output["output"].is_string(),
        "a program receives a string: {output}"
    );

    // A direct call's output has no caller.
    let direct = json!({"type": "function_call", "call_id": "call_1", "name": "direct_only",
        "arguments": "{}"});
    let call = openai_responses::read_call(&direct).unwrap();
    let result = execute_tool_call(&call, &registry(), RunOptions::new()).await;
    assert!(
        openai_responses::write_result(&result)
            .get("caller")
            .is_none()
    );

    // Streamed: the caller comes with the item.
    let mut stream = openai_responses::StreamAccumulator::new();
    stream
        .push(&json!({"type": "response.output_item.added", "output_index": 1, "item": item}))
        .unwrap();
    let events = stream
        .push(&json!({"type": "response.output_item.done", "output_index": 1, "item": item}))
        .unwrap();
    let call = events
        .iter()
        .find_map(|event| match event {
            StreamEvent::Finished { call, .. } => Some(call.clone()),
            _ => None,
        })
        .expect("the call finished");
    assert_eq!(call.origin, origin);
}
