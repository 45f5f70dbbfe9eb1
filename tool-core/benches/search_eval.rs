//! How often `tool_search` finds the right tool for real requests: the
//! labelled set in `benches/data/search_eval/` (1,911 user requests of the
//! Berkeley Function Calling Leaderboard over a catalogue of its 1,729
//! function definitions; see its README.md), each tool registered as a
//! deferred `DynamicTool` with its real parameter schema, each request sent
//! to `tool_search` as the model would send it (`{"query": <request>}`,
//! through `execute_tool_call`).
//!
//! Prints recall@1, recall@5 and MRR (over the top 10) for the whole set
//! and for each half: `tune` (what the ranking was tuned on) and `test`
//! (held out: requests for other functions). A request is found at the
//! first rank where one of its labels (its answer's registered names) is.
//!
//! Usage: `cargo bench -p tool-core --features schema-check --bench search_eval -- [--export PATH]`.
//! `--export` also writes, as JSON, every tool's searchable text (name,
//! description, each parameter's name and description: what the index
//! reads) and our top 10 for each request, for
//! `scripts/search_eval_reference.py`, which ranks the same text with
//! rank_bm25 (run both with `scripts/search-eval.sh`).
//!
//! It needs the feature `schema-check`: a `DynamicTool` with a schema is
//! refused at registration by a build that cannot check its arguments.

#[path = "common/catalogue.rs"]
mod catalogue;

use catalogue::{ToolLine, read_lines, registry};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::time::Instant;
use tool_core::toolset::SEARCH_TOOL_NAME;
use tool_core::{RunOptions, ToolCall, ToolDefinition, ToolRegistry, execute_tool_call};

/// How many results each search asks for: the depth MRR looks at. The first
/// five are the same as a search with the default limit of five returns.
const LIMIT: usize = 10;

/// One line of `queries.jsonl`.
#[derive(Deserialize)]
struct QueryLine {
    id: String,
    query: String,
    /// The registered names that count as found.
    labels: Vec<String>,
    /// `tune` or `test`.
    half: String,
}

/// Where each request's first label was found (1-based), if in the top 10.
struct Outcome<'a> {
    query: &'a QueryLine,
    rank: Option<usize>,
    top: Vec<String>,
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let export = args
        .iter()
        .position(|a| a == "--export")
        .map(|at| args.get(at + 1).cloned().expect("--export needs a path"));

    let tools: Vec<ToolLine> = read_lines("tools.jsonl");
    let queries: Vec<QueryLine> = read_lines("queries.jsonl");
    let registry = registry(&tools);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");

    let start = Instant::now();
    let outcomes: Vec<Outcome> = runtime.block_on(async {
        let mut outcomes = Vec::with_capacity(queries.len());
        for query in &queries {
            let top = search(&registry, &query.query).await;
            let labels: HashSet<&str> = query.labels.iter().map(String::as_str).collect();
            let rank = top
                .iter()
                .position(|name| labels.contains(name.as_str()))
                .map(|at| at + 1);
            outcomes.push(Outcome { query, rank, top });
        }
        outcomes
    });
    let elapsed = start.elapsed();

    println!(
        "{} tools, {} requests (BFCL simple, multiple, live simple, live multiple); \
         a search's mean time here {:.0} µs",
        tools.len(),
        queries.len(),
        elapsed.as_secs_f64() * 1e6 / queries.len() as f64
    );
    println!();
    println!("| ranking | requests | recall@1 | recall@5 | MRR@10 |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (what, half) in [
        ("all", None),
        ("tune half", Some("tune")),
        ("test half (held out)", Some("test")),
    ] {
        let chosen: Vec<&Outcome> = outcomes
            .iter()
            .filter(|outcome| half.is_none_or(|half| outcome.query.half == half))
            .collect();
        let metrics = Metrics::of(chosen.iter().map(|outcome| outcome.rank));
        println!(
            "| tool_search, {what} | {} | {:.3} | {:.3} | {:.3} |",
            metrics.count, metrics.recall_1, metrics.recall_5, metrics.mrr
        );
    }

    if let Some(path) = export {
        let documents: Vec<Value> = tools
            .iter()
            .map(|tool| {
                let definition =
                    ToolDefinition::new(&tool.name, &tool.description, tool.parameters.clone());
                json!({"name": tool.name, "text": tool_core::toolset::searchable_text(&definition)})
            })
            .collect();
        let ranked: Vec<Value> = outcomes
            .iter()
            .map(|outcome| {
                json!({
                    "id": outcome.query.id,
                    "query": outcome.query.query,
                    "labels": outcome.query.labels,
                    "half": outcome.query.half,
                    "top": outcome.top,
                })
            })
            .collect();
        let exported = json!({"limit": LIMIT, "documents": documents, "queries": ranked});
        std::fs::write(&path, exported.to_string()).expect("the export file can be written");
        println!(
            "\nwrote {path}: {} tools, {} requests",
            tools.len(),
            queries.len()
        );
    }
}

/// recall@1, recall@5 and the mean reciprocal rank (0 past the top 10).
struct Metrics {
    count: usize,
    recall_1: f64,
    recall_5: f64,
    mrr: f64,
}

impl Metrics {
    fn of(ranks: impl Iterator<Item = Option<usize>>) -> Self {
        let (mut count, mut at_1, mut at_5, mut reciprocal) = (0usize, 0usize, 0usize, 0.0);
        for rank in ranks {
            count += 1;
            if let Some(rank) = rank {
                at_1 += usize::from(rank == 1);
                at_5 += usize::from(rank <= 5);
                reciprocal += 1.0 / rank as f64;
            }
        }
        let share = |n: f64| n / count.max(1) as f64;
        Metrics {
            count,
            recall_1: share(at_1 as f64),
            recall_5: share(at_5 as f64),
            mrr: share(reciprocal),
        }
    }
}

/// `tool_search`'s names for `query`, best first.
async fn search(registry: &ToolRegistry, query: &str) -> Vec<String> {
    let call = ToolCall::new(
        "call-1",
        SEARCH_TOOL_NAME,
        json!({"query": query, "limit": LIMIT}),
    );
    let result = execute_tool_call(&call, registry, RunOptions::new()).await;
    assert!(!result.is_error, "{query:?}: {:?}", result.content);
    result
        .details
        .as_ref()
        .and_then(|details| details.get("found"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}
