//! `tool_search` over ten thousand deferred tools (`support/many_tools.rs`)
//! as an agent meets it: the latency of each call through
//! `execute_tool_call`, as percentiles (criterion gives means, and an
//! agent waits on the slow calls too), and what the registry holds in
//! memory, by a counting global allocator.
//!
//! Usage: `cargo bench -p tool-core --bench search_latency -- [QUERIES] [--export PATH]`
//! (default 2,000 queries). `--export` also writes, as JSON, every tool's
//! searchable text in the index's order and our top 10 for each query, for
//! `scripts/bm25_reference.py` (run by `scripts/bm25-compare.sh`).
//!
//! The counting allocator adds a few atomic additions to every allocation,
//! so these latencies are a little above the system allocator's (compare
//! criterion's `many_tools_search/bm25_mixed`, a mean without it).

#[path = "support/many_tools.rs"]
mod many_tools;

use many_tools::{ToolSpec, deferred_toolset, echo, queries, specs, tools};
use serde_json::{Value, json};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, Stats, StatsAlloc};
use std::alloc::System;
use std::time::{Duration, Instant};
use tool_core::{RunOptions, ToolCall, ToolRegistry, execute_tool_call};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Runs of each BM25 query whose fastest is its cost without preemptions.
const BEST_OF: usize = 5;

/// How many results the export asks for: the deepest overlap compared.
const EXPORT_LIMIT: u64 = 10;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let count: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(2000);
    let export = args
        .iter()
        .position(|a| a == "--export")
        .map(|at| args.get(at + 1).cloned().expect("--export needs a path"));

    let specs = specs();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");

    let (registry, memory) = measure_memory(&specs, &runtime);
    print_memory(&memory, specs.len());

    let queries = queries(count);
    let bm25: Vec<ToolCall> = queries
        .iter()
        .map(|query| search_call(json!({"query": query})))
        .collect();
    let regex: Vec<ToolCall> = specs
        .iter()
        .step_by(specs.len() / 200)
        .map(|spec| {
            let (service, rest) = spec.name.split_once('_').unwrap_or(("", &spec.name));
            let object = rest.rsplit('_').next().unwrap_or(rest);
            search_call(json!({"query": format!("^{service}_.*{object}"), "mode": "regex"}))
        })
        .collect();
    let echo_calls: Vec<ToolCall> = (0..count)
        .map(|i| ToolCall::new(format!("call-{i}"), "echo", json!({"value": "Pi"})))
        .collect();

    println!();
    println!("| calls through `execute_tool_call` | count | p50 | p99 | max | mean |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (what, calls) in [
        ("`tool_search`, BM25, mixed queries", &bm25),
        ("`tool_search`, regex `^<service>_.*<object>`", &regex),
        ("`echo`, the same registry", &echo_calls),
    ] {
        let times = runtime.block_on(time_calls(calls, &registry));
        print_latency(what, &times);
    }
    // Each query's fastest of a few runs: what the query itself costs, with
    // the other processes' preemptions (a shared machine's) mostly gone.
    let mut best: Vec<Duration> = runtime.block_on(time_calls(&bm25, &registry));
    for _ in 1..BEST_OF {
        let again = runtime.block_on(time_calls(&bm25, &registry));
        best = best.into_iter().zip(again).map(|(a, b)| a.min(b)).collect();
    }
    print_latency(
        &format!("`tool_search`, BM25, each query's best of {BEST_OF}"),
        &best,
    );
    // "id" is in most tools (every `<object>_id` parameter): its postings
    // are the longest a query can walk.
    let has_id = |query: &str| query.split_whitespace().any(|word| word == "id");
    for (what, with) in [("without", false), ("with", true)] {
        let times: Vec<Duration> = best
            .iter()
            .zip(&queries)
            .filter(|(_, query)| has_id(query) == with)
            .map(|(time, _)| *time)
            .collect();
        print_latency(&format!("the same, queries {what} the word `id`"), &times);
    }
    let mut slowest: Vec<(Duration, &String)> = best.into_iter().zip(&queries).collect();
    slowest.sort_unstable_by_key(|&(time, _)| std::cmp::Reverse(time));
    println!();
    println!("slowest BM25 queries (best of {BEST_OF}):");
    for (time, query) in slowest.iter().take(5) {
        println!("  {:.1} µs  {query:?}", time.as_secs_f64() * 1e6);
    }
    // The machine is shared: what else ran shows in the load average.
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!("load average while measured: {}", load.trim());
    }

    if let Some(path) = export {
        let exported = runtime.block_on(export_json(&specs, &queries, &registry));
        std::fs::write(&path, exported.to_string()).expect("the export file can be written");
        println!(
            "\nwrote {path}: {} tools, {} queries",
            specs.len(),
            queries.len()
        );
    }
}

/// What the allocator counted over one step: bytes asked for, and bytes
/// still held at its end.
struct Step {
    what: &'static str,
    allocated: usize,
    live: isize,
}

impl Step {
    fn of(what: &'static str, stats: Stats) -> Self {
        Step {
            what,
            allocated: stats.bytes_allocated,
            live: stats.bytes_allocated as isize - stats.bytes_deallocated as isize,
        }
    }
}

/// Builds the tools and a registry of them (deferred, plus `echo`), step by
/// step under the counting allocator; the last step is the first search,
/// which builds the sorted view and the search index.
fn measure_memory(
    specs: &[ToolSpec],
    runtime: &tokio::runtime::Runtime,
) -> (ToolRegistry, Vec<Step>) {
    let mut steps = Vec::new();
    let mut region = Region::new(GLOBAL);

    let definitions: Vec<_> = specs.iter().map(ToolSpec::definition).collect();
    steps.push(Step::of(
        "the same `Vec<ToolDefinition>` built by hand (for scale; dropped)",
        region.change(),
    ));
    drop(definitions);
    region.reset();

    let tools = tools(specs);
    steps.push(Step::of(
        "10,000 `DynamicTool`s, each schema compiled",
        region.change_and_reset(),
    ));

    let mut registry = ToolRegistry::new();
    registry
        .register_all(deferred_toolset(tools))
        .expect("unique names");
    registry.register(echo()).expect("echo is not taken");
    steps.push(Step::of(
        "registration: the deferred `Toolset`, `register_all`, `echo`",
        region.change_and_reset(),
    ));

    let first = runtime.block_on(execute_tool_call(
        &search_call(json!({"query": "create a jira ticket"})),
        &registry,
        RunOptions::new(),
    ));
    assert!(!first.is_error, "{:?}", first.content);
    drop(first);
    steps.push(Step::of(
        "first `tool_search`: sorted view, corpus and BM25 index built",
        region.change(),
    ));
    (registry, steps)
}

fn print_memory(steps: &[Step], tools: usize) {
    let mib = |bytes: f64| bytes / (1024.0 * 1024.0);
    println!("| step ({tools} tools) | allocated | live after | live per tool |");
    println!("| --- | ---: | ---: | ---: |");
    for step in steps {
        println!(
            "| {} | {:.1} MiB | {:.1} MiB | {:.0} B |",
            step.what,
            mib(step.allocated as f64),
            mib(step.live as f64),
            step.live as f64 / tools as f64
        );
    }
    let held = |from: usize| -> isize { steps[from..].iter().map(|step| step.live).sum() };
    println!(
        "| the registry, tools included: without the index / with it | | {:.1} MiB / {:.1} MiB | {:.0} B / {:.0} B |",
        mib(held(1) as f64 - steps[3].live as f64),
        mib(held(1) as f64),
        (held(1) - steps[3].live) as f64 / tools as f64,
        held(1) as f64 / tools as f64
    );
}

fn search_call(arguments: Value) -> ToolCall {
    ToolCall::new("call-1", "tool_search", arguments)
}

/// Each call timed alone, in order, after one untimed warm-up pass over
/// the first few.
async fn time_calls(calls: &[ToolCall], registry: &ToolRegistry) -> Vec<Duration> {
    for call in calls.iter().take(20) {
        execute_tool_call(call, registry, RunOptions::new()).await;
    }
    let mut times = Vec::with_capacity(calls.len());
    for call in calls {
        let start = Instant::now();
        let result = execute_tool_call(call, registry, RunOptions::new()).await;
        times.push(start.elapsed());
        assert!(
            !result.is_error,
            "{} failed: {:?}",
            call.name, result.content
        );
    }
    times
}

fn print_latency(what: &str, times: &[Duration]) {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let at = |quantile: f64| sorted[((sorted.len() - 1) as f64 * quantile).round() as usize];
    let mean = sorted.iter().sum::<Duration>() / sorted.len() as u32;
    let us = |time: Duration| format!("{:.1} µs", time.as_secs_f64() * 1e6);
    println!(
        "| {what} | {} | {} | {} | {} | {} |",
        sorted.len(),
        us(at(0.50)),
        us(at(0.99)),
        us(sorted[sorted.len() - 1]),
        us(mean)
    );
}

/// Every tool's searchable text in the index's order (the registration
/// order), and `tool_search`'s top 10 for each query.
async fn export_json(specs: &[ToolSpec], queries: &[String], registry: &ToolRegistry) -> Value {
    let documents: Vec<Value> = specs
        .iter()
        .map(|spec| json!({"name": spec.name, "text": spec.searchable_text()}))
        .collect();
    let mut ranked = Vec::with_capacity(queries.len());
    for query in queries {
        let call = search_call(json!({"query": query, "limit": EXPORT_LIMIT}));
        let result = execute_tool_call(&call, registry, RunOptions::new()).await;
        assert!(!result.is_error, "{query:?}: {:?}", result.content);
        let found = result
            .details
            .as_ref()
            .and_then(|details| details.get("found"))
            .cloned()
            .unwrap_or_else(|| json!([]));
        ranked.push(json!({"query": query, "top": found}));
    }
    json!({
        "k1": 1.2,
        "b": 0.75,
        "documents": documents,
        "queries": ranked,
    })
}
