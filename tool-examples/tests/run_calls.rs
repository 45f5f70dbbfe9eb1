//! `call::run_calls` in process: an in-memory reader in, a `Vec<u8>` out.

use serde_json::{Value, json};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::BufReader;
use tool_core::{DynamicTool, ExecutionMode, ToolOutput, ToolRegistry};
use tool_examples::call::run_calls;

const CALLS: usize = 12;
const STEP: Duration = Duration::from_millis(15);

/// A `slow` tool: call `index` sleeps `(CALLS - index) * STEP`, so later
/// calls finish first when they run together. Each records when it ended.
fn slow_registry(finished: Arc<Mutex<Vec<usize>>>) -> Arc<ToolRegistry> {
    let mut tools = ToolRegistry::new();
    let slow = DynamicTool::new("slow", "Sleeps, then answers", move |args, _ctx| {
        let finished = Arc::clone(&finished);
        async move {
            let index = args["index"].as_u64().ok_or("index: expected integer")? as usize;
            tokio::time::sleep(STEP * (CALLS - index) as u32).await;
            finished.lock().unwrap().push(index);
            Ok(ToolOutput::text(format!("done {index}")))
        }
    });
    tools.register(slow).unwrap();
    let echo = tool_examples::echo::EchoTool;
    tools.register(echo).unwrap();
    Arc::new(tools)
}

fn slow_input() -> String {
    let mut input = String::new();
    for index in 0..CALLS {
        let call = json!({"type": "toolCall", "id": format!("id-{index}"), "name": "slow", "arguments": {"index": index}});
        writeln!(input, "{call}").unwrap();
    }
    input
}

async fn run(input: String, tools: Arc<ToolRegistry>, mode: ExecutionMode) -> Vec<Value> {
    let mut output = Vec::new();
    run_calls(
        BufReader::new(std::io::Cursor::new(input.into_bytes())),
        &mut output,
        tools,
        mode,
    )
    .await
    .unwrap();
    let output = String::from_utf8(output).unwrap();
    assert!(output.is_empty() || output.ends_with('\n'));
    output
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn assert_slow_answers(answers: &[Value]) {
    assert_eq!(answers.len(), CALLS);
    for (index, answer) in answers.iter().enumerate() {
        assert_eq!(answer["toolCallId"], format!("id-{index}"));
        assert_eq!(answer["content"][0]["text"], format!("done {index}"));
        assert_eq!(answer["isError"], false);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_keeps_input_order_when_later_calls_finish_first() {
    let finished = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let answers = run(
        slow_input(),
        slow_registry(Arc::clone(&finished)),
        ExecutionMode::Parallel,
    )
    .await;
    let elapsed = started.elapsed();
    assert_slow_answers(&answers);
    // The calls did run together: later ones finished first, and the whole
    // took about the longest sleep, not the sum of them.
    let finished = finished.lock().unwrap().clone();
    assert_eq!(finished.len(), CALLS);
    let last_position = finished.iter().position(|&index| index == CALLS - 1);
    let first_position = finished.iter().position(|&index| index == 0);
    assert!(last_position < first_position, "finished: {finished:?}");
    let sum: Duration = (1..=CALLS as u32).map(|n| STEP * n).sum();
    assert!(
        elapsed < sum,
        "took {elapsed:?}, the sum of sleeps is {sum:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sequential_runs_one_call_after_another() {
    let finished = Arc::new(Mutex::new(Vec::new()));
    let answers = run(
        slow_input(),
        slow_registry(Arc::clone(&finished)),
        ExecutionMode::Sequential,
    )
    .await;
    assert_slow_answers(&answers);
    assert_eq!(
        *finished.lock().unwrap(),
        (0..CALLS).collect::<Vec<_>>(),
        "in input order"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn parallel_keeps_order_on_a_single_thread_runtime() {
    let finished = Arc::new(Mutex::new(Vec::new()));
    let answers = run(
        slow_input(),
        slow_registry(Arc::clone(&finished)),
        ExecutionMode::Parallel,
    )
    .await;
    assert_slow_answers(&answers);
    assert_ne!(*finished.lock().unwrap(), (0..CALLS).collect::<Vec<_>>());
}

fn echo_input(count: usize) -> String {
    let mut input = String::with_capacity(count * 80);
    for index in 0..count {
        writeln!(
            input,
            r#"{{"type":"toolCall","id":"e{index}","name":"echo","arguments":{{"value":"v{index}"}}}}"#
        )
        .unwrap();
    }
    input
}

async fn ten_thousand_echoes(mode: ExecutionMode) {
    const COUNT: usize = 10_000;
    let tools = Arc::new(tool_examples::example_registry(&std::env::temp_dir()).unwrap());
    let answers = run(echo_input(COUNT), tools, mode).await;
    assert_eq!(answers.len(), COUNT);
    for (index, answer) in answers.iter().enumerate() {
        assert_eq!(answer["toolCallId"], format!("e{index}"), "{answer}");
        assert_eq!(answer["toolName"], "echo");
        assert_eq!(
            answer["content"],
            json!([{"type": "text", "text": format!("v{index}")}])
        );
        assert_eq!(answer["details"], json!({"source": "echo"}));
        assert_eq!(answer["isError"], false);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_thousand_echo_calls_are_answered_in_order() {
    ten_thousand_echoes(ExecutionMode::Parallel).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_echo_calls_in_sequence() {
    ten_thousand_echoes(ExecutionMode::Sequential).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_lines_between_calls_keep_their_place() {
    let tools = Arc::new(tool_examples::example_registry(&std::env::temp_dir()).unwrap());
    let input = concat!(
        "{\"id\":\"a\",\"name\":\"echo\",\"arguments\":{\"value\":\"1\"}}\n",
        "\n",
        "not json\n",
        "{\"id\":\"b\"}\n",
        "{\"no\":\"id\"}\n",
        "{\"id\":\"c\",\"name\":\"upper\",\"arguments\":{\"text\":\"x\"}}",
    );
    for mode in [ExecutionMode::Parallel, ExecutionMode::Sequential] {
        let answers = run(input.to_owned(), Arc::clone(&tools), mode).await;
        assert_eq!(answers.len(), 5, "{mode:?}");
        assert_eq!(answers[0]["toolCallId"], "a");
        assert_eq!(answers[1]["line"], 3);
        assert!(
            answers[1]["error"]
                .as_str()
                .unwrap()
                .starts_with("line 3: invalid JSON: ")
        );
        assert_eq!(answers[2]["toolCallId"], "b");
        assert_eq!(answers[2]["isError"], true);
        assert_eq!(answers[3]["line"], 5);
        assert!(
            answers[3]["error"]
                .as_str()
                .unwrap()
                .starts_with("line 5: not a tool call: ")
        );
        assert_eq!(answers[4]["toolCallId"], "c");
        assert_eq!(answers[4]["content"][0]["text"], "X");
    }
}

#[tokio::test]
async fn empty_input_writes_nothing() {
    let tools = Arc::new(ToolRegistry::new());
    for mode in [ExecutionMode::Parallel, ExecutionMode::Sequential] {
        assert!(
            run(String::new(), Arc::clone(&tools), mode)
                .await
                .is_empty()
        );
        assert!(
            run("\n \n\t\n".into(), Arc::clone(&tools), mode)
                .await
                .is_empty()
        );
    }
}
