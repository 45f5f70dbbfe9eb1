//! Instruction counts, for machines too noisy for wall-clock ratios:
//! `valgrind --tool=callgrind` counts instructions, which do not change with
//! what else the machine is doing. `scripts/bench-instructions.sh` runs each
//! variant twice (0 and N iterations) and divides the difference by N.
//!
//! Usage: instructions <variant> <iterations>; with no arguments (as
//! `cargo bench` runs it) it lists the variants and exits.

mod support;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::hint::black_box;
use support::{Large, Medium, Small, large_args, medium_args, medium_bad_args, small_args};
use tool_core::ToolParams;

const VARIANTS: &[&str] = &[
    "small/tool_core",
    "small/serde",
    "small/jsonschema_serde",
    "medium/tool_core",
    "medium/serde",
    "medium/jsonschema_serde",
    "large/tool_core",
    "large/serde",
    "large/jsonschema_serde",
    "errors/tool_core",
    "errors/serde",
    "line/tool_core",
    "line/serde_json_floor",
];

/// The executor bench's line: a tool call in, a result line out.
const LINE: &str = r#"{"type":"toolCall","id":"call-1","name":"echo","arguments":{"value":"Pi","ignored":"drop me"}}"#;

#[derive(serde::Serialize)]
struct EchoDetails {
    source: &'static str,
}

/// Echo one value
#[tool_core::tool]
async fn echo(value: String) -> Result<tool_core::ToolOutput<EchoDetails>, tool_core::ToolError> {
    Ok(tool_core::ToolOutput::new(vec![tool_core::text(value)])
        .with_details(EchoDetails { source: "echo" }))
}

fn run_lines(how: &str, iterations: usize) {
    let mut tools = tool_core::ToolRegistry::new();
    tools.register(EchoTool).expect("one tool");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        for _ in 0..iterations {
            let line = black_box(LINE);
            let out = if how == "tool_core" {
                let call: tool_core::ToolCall = serde_json::from_str(line).unwrap();
                let result =
                    tool_core::execute_tool_call(&call, &tools, tool_core::CallContext::default())
                        .await;
                serde_json::to_string(&result).unwrap()
            } else {
                let value: Value = serde_json::from_str(line).unwrap();
                serde_json::to_string(&value).unwrap()
            };
            drop(black_box(out));
        }
    });
}

fn run<T: ToolParams + DeserializeOwned>(how: &str, arguments: &Value, iterations: usize) {
    let validator = jsonschema::draft202012::new(&T::json_schema()).expect("schema compiles");
    for _ in 0..iterations {
        let arguments = black_box(arguments);
        match how {
            "tool_core" => drop(black_box(T::parse(arguments).expect("valid"))),
            "serde" => drop(black_box(T::deserialize(arguments).expect("valid"))),
            _ => {
                assert!(validator.is_valid(arguments));
                drop(black_box(T::deserialize(arguments).expect("valid")));
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let [variant, iterations] = args.as_slice() else {
        println!("variants: {}", VARIANTS.join(", "));
        return;
    };
    let iterations: usize = iterations.parse().expect("a number of iterations");
    let (size, how) = variant.split_once('/').expect("size/how");
    match size {
        "small" => run::<Small>(how, &small_args(), iterations),
        "medium" => run::<Medium>(how, &medium_args(), iterations),
        "large" => run::<Large>(how, &large_args(), iterations),
        "line" => run_lines(how, iterations),
        "errors" => {
            let arguments = medium_bad_args();
            for _ in 0..iterations {
                let arguments = black_box(&arguments);
                let message = if how == "tool_core" {
                    Medium::parse(arguments).unwrap_err().to_string()
                } else {
                    Medium::deserialize(arguments).unwrap_err().to_string()
                };
                drop(black_box(message));
            }
        }
        other => panic!("unknown size {other}"),
    }
}
