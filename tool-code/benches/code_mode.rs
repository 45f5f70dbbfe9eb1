//! What code mode costs and saves, measured in one run and reported as
//! ratios beside the direct call (these machines are shared and noisy;
//! each figure is the median of interleaved rounds):
//!
//! - a run's start: `run_code` with `return 1` (a thread, a QuickJS runtime
//!   and context, the prelude) against one direct `execute_tool_call`;
//! - one inner call: a script making 200 calls of `echo` in sequence, less
//!   the empty script, per call, against a direct `execute_tool_call`
//!   (goal: at most 2x), beside the engine's own floor: the same loop
//!   over an async JavaScript function that sends its argument through
//!   `JSON.stringify` and `JSON.parse`, as a call's arguments and answer
//!   go, with no tool and no host behind it;
//! - a 20-lookup workflow (the expenses of 20 employees, who is over
//!   budget): the model's round trips and the bytes that reach its
//!   context, direct calls against one script. Counted, not timed.
//!
//! Run: `cargo bench -p tool-code --bench code_mode`. With `--once LOOP N`
//! (LOOP one of `direct`, `inner`, `floor`, `identity`; N calls) it runs
//! that loop once and nothing else, for callgrind to count its
//! instructions: `scripts/code-mode-instructions.sh`.

use serde_json::json;
use std::time::{Duration, Instant};
use tool_code::{CodeLimits, CodeMode};
use tool_core::providers::anthropic;
use tool_core::{RunOptions, ToolResultMessage};
use tool_core::{ToolCall, ToolRegistry, execute_tool_call, tool};

/// Echo one value
#[tool]
async fn echo(value: String) -> String {
    value
}

/// Look up an employee's expense report for this month
#[tool(read_only)]
async fn expense_report(employee: u32) -> String {
    // What such a tool returns: a record, most of which the task ignores.
    json!({
        "employee": employee,
        "name": format!("Employee {employee}"),
        "department": "Engineering",
        "month": "2026-11",
        "currency": "EUR",
        "items": [
            {"date": "2026-11-03", "kind": "travel", "euros": 120 + employee * 37 % 400, "note": "train to the client's office"},
            {"date": "2026-11-12", "kind": "meals", "euros": 45 + employee * 11 % 90, "note": "team lunch"},
            {"date": "2026-11-20", "kind": "software", "euros": 30 + employee * 7 % 60, "note": "licence renewal"},
        ],
        "budget": 400,
        "approved_by": "finance@example.com",
    })
    .to_string()
}

const ROUNDS: usize = 15;
const START_RUNS: usize = 40;
const INNER_CALLS: usize = 200;

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let mut tools = ToolRegistry::new();
    tools.register(EchoTool).unwrap();
    tools.register(ExpenseReportTool).unwrap();
    let tools = CodeMode::new()
        // Room for `--once`'s loops; a limit is a counter either way.
        .with_limits(CodeLimits::default().with_calls(1_000_000))
        .registry(tools)
        .unwrap();

    let direct = |n: usize| {
        runtime.block_on(async {
            let started = Instant::now();
            for i in 0..n {
                let call = ToolCall::new(format!("c{i}"), "echo", json!({"value": "x"}));
                std::hint::black_box(execute_tool_call(&call, &tools, RunOptions::new()).await);
            }
            started.elapsed()
        })
    };
    let script = |code: &str, n: usize| {
        runtime.block_on(async {
            let started = Instant::now();
            for i in 0..n {
                let call = ToolCall::new(format!("r{i}"), "run_code", json!({"code": code}));
                let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
                assert!(!result.is_error, "{result:?}");
            }
            started.elapsed()
        })
    };
    let loop_code = inner_loop(INNER_CALLS);

    let floor_code = floor_loop(INNER_CALLS);
    if let [_, once, which, n, ..] = &std::env::args().collect::<Vec<_>>()[..]
        && once == "--once"
    {
        let n: usize = n.parse().expect("a number of calls");
        match which.as_str() {
            "direct" => direct(n),
            "inner" => script(&inner_loop(n), 1),
            "floor" => script(&floor_loop(n), 1),
            "identity" => script(&identity_loop(n), 1),
            other => panic!("no loop {other}: direct, inner, floor or identity"),
        };
        return;
    }

    let (mut starts, mut directs, mut inner, mut floor) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let one_direct = direct(START_RUNS) / START_RUNS as u32;
        let empty = script("return 1;", START_RUNS) / START_RUNS as u32;
        let looped = script(&loop_code, 5) / 5;
        let floored = script(&floor_code, 5) / 5;
        directs.push(one_direct);
        starts.push(empty);
        inner.push(looped.saturating_sub(empty) / INNER_CALLS as u32);
        floor.push(floored.saturating_sub(empty) / INNER_CALLS as u32);
    }
    let (direct, start, inner, floor) = (
        median(directs),
        median(starts),
        median(inner),
        median(floor),
    );
    println!("code mode, median of {ROUNDS} interleaved rounds:");
    println!(
        "  a run's start (return 1): {:.1}x a direct execute_tool_call ({} µs against {} ns)",
        ratio(start, direct),
        start.as_micros(),
        direct.as_nanos()
    );
    println!(
        "  one inner call: {:.2}x a direct execute_tool_call (goal: at most 2x; {} ns against {} ns)",
        ratio(inner, direct),
        inner.as_nanos(),
        direct.as_nanos()
    );
    println!(
        "  the engine's floor, an async function round-tripping its argument through JSON, \
         no tool: {:.2}x a direct execute_tool_call; the inner call is {:.2}x the floor",
        ratio(floor, direct),
        ratio(inner, floor)
    );
    workflow(&runtime, &tools);
}

/// A script calling `echo` `n` times, one after another.
fn inner_loop(n: usize) -> String {
    format!("for (let i = 0; i < {n}; i++) {{ await tools.echo({{ value: 'x' }}); }}")
}

/// The same loop over an async function that round-trips its argument
/// through JSON, as a call's arguments and answer go: no host behind it.
fn floor_loop(n: usize) -> String {
    format!(
        "const echo = async (args) => JSON.parse(JSON.stringify(args)); \
         for (let i = 0; i < {n}; i++) {{ await echo({{ value: 'x' }}); }}"
    )
}

/// The same loop over an async function that does nothing: what awaiting
/// any call costs the interpreter.
fn identity_loop(n: usize) -> String {
    format!(
        "const echo = async (args) => args; \
         for (let i = 0; i < {n}; i++) {{ await echo({{ value: 'x' }}); }}"
    )
}

/// The 20-lookup task both ways: what reaches the model.
fn workflow(runtime: &tokio::runtime::Runtime, tools: &ToolRegistry) {
    let employees: Vec<u32> = (1..=20).collect();
    // Direct: the model asks for 20 calls (one turn, parallel calls), reads
    // 20 results, then answers: 2 round trips, every result in context.
    let results: Vec<ToolResultMessage> = runtime.block_on(async {
        let mut results = Vec::new();
        for employee in &employees {
            let call = ToolCall::new(
                format!("toolu_{employee}"),
                "expense_report",
                json!({ "employee": employee }),
            );
            results.push(execute_tool_call(&call, tools, RunOptions::new()).await);
        }
        results
    });
    let direct_bytes: usize = results
        .iter()
        .map(|result| anthropic::write_result(result).to_string().len())
        .sum::<usize>()
        + employees
            .iter()
            .map(|employee| {
                json!({"type": "tool_use", "id": format!("toolu_{employee}"), "name": "expense_report",
                       "input": {"employee": employee}})
                .to_string()
                .len()
            })
            .sum::<usize>();
    // Code mode: one call whose script does the lookups and the filter.
    let code = r#"
        const ids = Array.from({ length: 20 }, (_, i) => i + 1);
        const reports = await Promise.all(ids.map((employee) => tools.expense_report({ employee })));
        const over = reports.map(JSON.parse)
            .map((r) => ({ name: r.name, spent: r.items.reduce((sum, item) => sum + item.euros, 0), budget: r.budget }))
            .filter((r) => r.spent > r.budget);
        console.log(over.length, "of", ids.length, "over budget");
        return over.map((r) => `${r.name}: ${r.spent} EUR`);
    "#;
    let call = ToolCall::new("toolu_code", "run_code", json!({ "code": code }));
    let result = runtime.block_on(execute_tool_call(&call, tools, RunOptions::new()));
    assert!(!result.is_error, "{result:?}");
    let code_bytes = anthropic::write_result(&result).to_string().len()
        + json!({"type": "tool_use", "id": "toolu_code", "name": "run_code", "input": {"code": code}})
            .to_string()
            .len();
    println!("  20 lookups, then who is over budget:");
    println!(
        "    direct: 2 model round trips, {direct_bytes} bytes of calls and results in context"
    );
    println!(
        "    code mode: 2 model round trips, {code_bytes} bytes ({:.1}x fewer); the answer: {:?}",
        direct_bytes as f64 / code_bytes as f64,
        result.content[0].as_text().unwrap_or_default()
    );
    println!(
        "    (dependent lookups, one per turn: 21 round trips direct, still 2 with code mode)"
    );
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(f64::MIN_POSITIVE)
}
