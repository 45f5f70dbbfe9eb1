//! Ten thousand tools (`support/many_tools.rs`): what registering them,
//! writing their definitions and searching them costs, each next to what
//! it is compared with in the same run (`scripts/bench-many-tools.sh`
//! prints the ratios; p50/p99 latency and memory are `search_latency`'s):
//!
//! - `many_tools_register/*`: the same `Vec<ToolDefinition>` built by hand
//!   (`definitions_by_hand`, the floor: every name, description and schema
//!   copied once) against the tools put in a deferred `Toolset`
//!   (`toolset_build`), that set given to `register_all`, and 10,000
//!   `register` calls; the `_1000` rows are the same for the first 1,000
//!   tools, so 10x their time is linear growth.
//! - `many_tools_definitions/*`: `definitions_for` and
//!   `definitions_for_native_search` against cloning the same list, and
//!   each `ProviderFormat::ALL` format's `definitions` of the full list
//!   against `serde_json::to_value` of it.
//! - `many_tools_search/*`: `tool_search` through `execute_tool_call`
//!   (BM25: one query, and the 50 realistic ones in turn; a regex) against
//!   an `echo` call through the same executor and registry, and the first
//!   search of a registry, which builds the index.

#[path = "support/many_tools.rs"]
mod many_tools;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use many_tools::{QUERIES, ToolSpec, deferred_toolset, echo, specs, tools};
use serde_json::json;
use std::hint::black_box;
use std::time::Duration;
use tool_core::providers::ProviderFormat;
use tool_core::toolset::Toolset;
use tool_core::{
    DynamicTool, RunOptions, ToolCall, ToolDefinition, ToolRegistry, execute_tool_call,
};

fn by_hand(specs: &[ToolSpec]) -> Vec<ToolDefinition> {
    specs.iter().map(ToolSpec::definition).collect()
}

fn register_each(tools: Vec<DynamicTool>) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for tool in tools {
        registry.register(tool).expect("unique names");
    }
    registry
}

fn register_all(set: Toolset) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    registry.register_all(set).expect("unique names");
    registry
}

fn register(c: &mut Criterion) {
    let specs = specs();
    let tools = tools(&specs);
    let mut group = c.benchmark_group("many_tools_register");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (suffix, count) in [("", specs.len()), ("_1000", 1000)] {
        let specs = &specs[..count];
        let tools = &tools[..count];
        // Every row of this group drops what it built outside the timing,
        // as `iter_batched` does, so none pays for freeing 10,000 schemas.
        group.bench_function(format!("definitions_by_hand{suffix}"), |b| {
            b.iter_batched(|| specs, by_hand, BatchSize::PerIteration)
        });
        group.bench_function(format!("toolset_build{suffix}"), |b| {
            b.iter_batched(|| tools.to_vec(), deferred_toolset, BatchSize::PerIteration)
        });
        let set = deferred_toolset(tools.to_vec());
        group.bench_function(format!("register_all{suffix}"), |b| {
            b.iter_batched(|| set.clone(), register_all, BatchSize::PerIteration)
        });
        group.bench_function(format!("register_each{suffix}"), |b| {
            b.iter_batched(|| tools.to_vec(), register_each, BatchSize::PerIteration)
        });
    }
    group.finish();
}

fn definitions(c: &mut Criterion) {
    let specs = specs();
    let list = by_hand(&specs);
    let eager = register_each(tools(&specs));
    let deferred = register_all(deferred_toolset(tools(&specs)));
    let options = RunOptions::new();
    let native = deferred.definitions_for_native_search(&options);
    assert_eq!(eager.definitions_for(&options).len(), specs.len());
    assert_eq!(
        deferred.definitions_for(&options).len(),
        1,
        "tool_search only"
    );

    let mut group = c.benchmark_group("many_tools_definitions");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("clone_floor", |b| b.iter(|| black_box(&list).clone()));
    group.bench_function("definitions_for", |b| {
        b.iter(|| eager.definitions_for(black_box(&options)))
    });
    group.bench_function("definitions_for_deferred", |b| {
        b.iter(|| deferred.definitions_for(black_box(&options)))
    });
    group.bench_function("definitions_for_native_search", |b| {
        b.iter(|| deferred.definitions_for_native_search(black_box(&options)))
    });
    group.bench_function("to_value_floor", |b| {
        b.iter(|| serde_json::to_value(black_box(&list)).expect("definitions serialize"))
    });
    for format in ProviderFormat::ALL {
        group.bench_function(format!("format_{}", format.name()), |b| {
            b.iter(|| format.definitions(black_box(&list)))
        });
        if format.searches_natively() {
            group.bench_function(format!("format_{}_deferred", format.name()), |b| {
                b.iter(|| format.definitions(black_box(&native)))
            });
        }
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    let specs = specs();
    let mut fresh = register_all(deferred_toolset(tools(&specs)));
    fresh.register(echo()).expect("echo is not taken");
    let registry = fresh.clone();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let call = |arguments| ToolCall::new("call-1", "tool_search", arguments);
    let echo_call = ToolCall::new("call-1", "echo", json!({"value": "Pi"}));
    let jira = call(json!({"query": "create a jira ticket"}));
    let mixed: Vec<ToolCall> = QUERIES
        .iter()
        .map(|query| call(json!({"query": query})))
        .collect();
    let regex = call(json!({"query": "(create|open).*ticket", "mode": "regex"}));

    // Built once here, so every timed search below finds the index ready.
    let warm = runtime.block_on(execute_tool_call(&jira, &registry, RunOptions::new()));
    assert!(!warm.is_error, "{:?}", warm.content);
    assert_eq!(
        warm.details.as_ref().map(|details| &details["found"][0]),
        Some(&json!("jira_create_ticket"))
    );

    let mut group = c.benchmark_group("many_tools_search");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("echo", |b| {
        b.to_async(&runtime)
            .iter(|| execute_tool_call(black_box(&echo_call), &registry, RunOptions::new()))
    });
    group.bench_function("bm25_one", |b| {
        b.to_async(&runtime)
            .iter(|| execute_tool_call(black_box(&jira), &registry, RunOptions::new()))
    });
    let mut turn = 0;
    group.bench_function("bm25_mixed", |b| {
        b.to_async(&runtime).iter(|| {
            turn = (turn + 1) % mixed.len();
            execute_tool_call(black_box(&mixed[turn]), &registry, RunOptions::new())
        })
    });
    group.bench_function("regex", |b| {
        b.to_async(&runtime)
            .iter(|| execute_tool_call(black_box(&regex), &registry, RunOptions::new()))
    });
    group.sample_size(10);
    let jira = &jira;
    group.bench_function("first_search", |b| {
        b.to_async(&runtime).iter_batched(
            // Never read, so its sorted view and the index are not built yet.
            || fresh.clone(),
            |registry| async move {
                execute_tool_call(jira, &registry, RunOptions::new()).await;
                registry
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, register, definitions, search);
criterion_main!(benches);
