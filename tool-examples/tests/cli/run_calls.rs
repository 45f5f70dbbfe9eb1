//! `call::run_calls` in process: an in-memory reader in, a `Vec<u8>` out.

use serde_json::{Value, json};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::BufReader;
use tool_core::{DynamicTool, ExecutionMode, RunOptions, ToolOutput, ToolRegistry};
use tool_examples::call::run_calls;

const CALLS: usize = 12;
const STEP: Duration = Duration::from_millis(15);

/// What the `slow` calls of one run did.
#[derive(Default)]
struct SlowRun {
    /// Indexes, in the order the calls ended.
    finished: Vec<usize>,
    /// Calls running now.
    running: usize,
    /// The most calls that were running at once.
    most_running: usize,
}

/// A `slow` tool: call `index` sleeps `(CALLS - index) * STEP`, so later
/// calls finish first when they run together. Each records when it ran.
fn slow_registry(record: Arc<Mutex<SlowRun>>) -> Arc<ToolRegistry> {
    let mut tools = ToolRegistry::new();
    let slow = DynamicTool::new("slow", "Sleeps, then answers", move |args, _ctx| {
        let record = Arc::clone(&record);
        async move {
            let index = args["index"].as_u64().ok_or("index: expected integer")? as usize;
            {
                let mut record = record.lock().unwrap();
                record.running += 1;
                record.most_running = record.most_running.max(record.running);
            }
            tokio::time::sleep(STEP * (CALLS - index) as u32).await;
            let mut record = record.lock().unwrap();
            record.running -= 1;
            record.finished.push(index);
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
        RunOptions::default(),
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

/// Runs the `slow` calls in `mode`; every answer is paired, in input order.
async fn run_slow(mode: ExecutionMode) -> SlowRun {
    let record = Arc::new(Mutex::new(SlowRun::default()));
    let answers = run(slow_input(), slow_registry(Arc::clone(&record)), mode).await;
    assert_eq!(answers.len(), CALLS);
    for (index, answer) in answers.iter().enumerate() {
        assert_eq!(answer["toolCallId"], format!("id-{index}"));
        assert_eq!(answer["content"][0]["text"], format!("done {index}"));
        assert_eq!(answer["isError"], false);
    }
    let record = std::mem::take(&mut *record.lock().unwrap());
    assert_eq!(record.finished.len(), CALLS);
    assert_eq!(record.running, 0);
    record
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_keeps_input_order_when_later_calls_finish_first() {
    let record = run_slow(ExecutionMode::Parallel).await;
    // The calls did run together: later ones finished first, and more than
    // one was running at a time.
    let finished = &record.finished;
    let last_position = finished.iter().position(|&index| index == CALLS - 1);
    let first_position = finished.iter().position(|&index| index == 0);
    assert!(last_position < first_position, "finished: {finished:?}");
    assert!(record.most_running > 1, "{} at most", record.most_running);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sequential_runs_one_call_after_another() {
    let record = run_slow(ExecutionMode::Sequential).await;
    assert_eq!(
        record.finished,
        (0..CALLS).collect::<Vec<_>>(),
        "in input order"
    );
    assert_eq!(record.most_running, 1);
}

#[tokio::test(flavor = "current_thread")]
async fn parallel_keeps_order_on_a_single_thread_runtime() {
    let record = run_slow(ExecutionMode::Parallel).await;
    assert_ne!(record.finished, (0..CALLS).collect::<Vec<_>>());
    assert!(record.most_running > 1, "{} at most", record.most_running);
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

/// The example tools, `read` rooted in the temp directory.
fn example_tools() -> Arc<ToolRegistry> {
    Arc::new(tool_examples::example_registry(&std::env::temp_dir()).unwrap())
}

async fn ten_thousand_echoes(mode: ExecutionMode) {
    const COUNT: usize = 10_000;
    let answers = run(echo_input(COUNT), example_tools(), mode).await;
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

/// `{"error": ..., "line": line}`, the error starting with `start`.
fn assert_line_error(answer: &Value, line: usize, start: &str) {
    assert_eq!(answer["line"], line, "{answer}");
    let error = answer["error"].as_str().expect("an error message");
    assert!(error.starts_with(start), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_lines_between_calls_keep_their_place() {
    let tools = example_tools();
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
        assert_line_error(&answers[1], 3, "line 3: invalid JSON: ");
        assert_eq!(answers[2]["toolCallId"], "b");
        assert_eq!(answers[2]["isError"], true);
        assert_line_error(&answers[3], 5, "line 5: not a tool call: ");
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

/// The progress bar is told every answer and every error, in both modes
/// (drawn hidden here: the binary draws it only on a terminal).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_counts_every_answer_and_error() {
    use tool_examples::call::{Progress, run_calls_with_progress};
    let mut input = echo_input(1000);
    input.push_str("not json\n{\"id\":\"x\",\"name\":\"missing\"}\n\n");
    for mode in [ExecutionMode::Parallel, ExecutionMode::Sequential] {
        let progress = Arc::new(Progress::new(
            Some(input.len() as u64),
            indicatif::ProgressDrawTarget::hidden(),
        ));
        let mut output = Vec::new();
        run_calls_with_progress(
            BufReader::new(std::io::Cursor::new(input.clone().into_bytes())),
            &mut output,
            example_tools(),
            mode,
            RunOptions::default(),
            Some(Arc::clone(&progress)),
        )
        .await
        .unwrap();
        assert_eq!(output.iter().filter(|byte| **byte == b'\n').count(), 1002);
        assert_eq!(progress.counts(), (1002, 2), "{mode:?}");
    }
}
