//! The executor end to end, against the floor a user cannot go below: from
//! a tool call's JSON line to its serialized result line, versus parsing and
//! serializing the same line with serde_json alone. And batches of 1,000
//! calls, parallel and sequential.

use criterion::{Criterion, criterion_group, criterion_main};
use serde::Serialize;
use serde_json::Value;
use std::hint::black_box;
use tool_core::{
    CallContext, ExecutionMode, ToolCall, ToolError, ToolOutput, ToolRegistry, execute_tool_call,
    execute_tool_calls, text, tool,
};

#[derive(Serialize)]
struct EchoDetails {
    source: &'static str,
}

/// Echo one value
#[tool]
async fn echo(value: String) -> Result<ToolOutput<EchoDetails>, ToolError> {
    Ok(ToolOutput::new(vec![text(value)]).with_details(EchoDetails { source: "echo" }))
}

const LINE: &str = r#"{"type":"toolCall","id":"call-1","name":"echo","arguments":{"value":"Pi","ignored":"drop me"}}"#;

fn registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(EchoTool).expect("one tool");
    tools
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn end_to_end(c: &mut Criterion) {
    let tools = registry();
    let runtime = runtime();
    let mut group = c.benchmark_group("executor/line");
    group.bench_function("tool_core", |b| {
        b.to_async(&runtime).iter(|| async {
            let call: ToolCall = serde_json::from_str(black_box(LINE)).unwrap();
            let result = execute_tool_call(&call, &tools, CallContext::default()).await;
            serde_json::to_string(&result).unwrap()
        })
    });
    group.bench_function("serde_json_floor", |b| {
        b.iter(|| {
            let value: Value = serde_json::from_str(black_box(LINE)).unwrap();
            serde_json::to_string(&value).unwrap()
        })
    });
    group.finish();
}

fn batches(c: &mut Criterion) {
    let tools = registry();
    let runtime = runtime();
    let calls: Vec<ToolCall> = (0..1000)
        .map(|i| serde_json::from_str(&LINE.replace("call-1", &format!("call-{i}"))).unwrap())
        .collect();
    let mut group = c.benchmark_group("executor/batch_1000");
    for (name, mode) in [
        ("parallel", ExecutionMode::Parallel),
        ("sequential", ExecutionMode::Sequential),
    ] {
        group.bench_function(name, |b| {
            b.to_async(&runtime).iter(|| async {
                execute_tool_calls(black_box(&calls), &tools, CallContext::default(), mode).await
            })
        });
    }
    group.finish();
}

criterion_group!(benches, end_to_end, batches);
criterion_main!(benches);
