//! What the tools block of a request holds for 500 tools, in each way of
//! sending them: the first 500 functions of the search evaluation's
//! catalogue (`benches/data/search_eval/tools.jsonl`, BFCL's real
//! definitions), every one deferred, and five of them loaded by a search
//! (what `tool_search` finds for the set's first request).
//!
//! Writes one JSON file per mode and provider, the `tools` array exactly as
//! the request would carry it, and `modes.json` saying which entries the
//! model reads before and after the search (a deferred entry is sent but
//! not read until found). `scripts/tools-block-tokens.sh` counts their
//! tokens for docs/providers.md.
//!
//! Usage: `cargo bench -p tool-core --features schema-check --bench tools_block -- DIR`.

#[path = "common/catalogue.rs"]
mod catalogue;

use catalogue::{ToolLine, read_lines, registry};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tool_core::providers::anthropic::{self, ToolSearch};
use tool_core::providers::{Strict, openai_responses};
use tool_core::toolset::SEARCH_TOOL_NAME;
use tool_core::{RunOptions, ToolCall, ToolDefinition, ToolRegistry, execute_tool_call};

/// How many tools the set has.
const TOOLS: usize = 500;

#[derive(Deserialize)]
struct QueryLine {
    query: String,
}

fn main() {
    let out = std::env::args()
        .skip(1)
        .find(|arg| arg != "--bench")
        .expect("usage: tools_block DIR");
    std::fs::create_dir_all(&out).expect("the output directory");
    let tools: Vec<ToolLine> = read_lines("tools.jsonl").into_iter().take(TOOLS).collect();
    let query: QueryLine = read_lines("queries.jsonl")
        .into_iter()
        .next()
        .expect("a request");
    let registry = registry(&tools);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let found = runtime.block_on(search(&registry, &query.query));
    let before = RunOptions::new();
    let after = RunOptions::new().load_found(std::slice::from_ref(&found));
    let loaded: Vec<String> = after.loaded().to_vec();
    assert_eq!(loaded.len(), 5, "the search loads five tools: {loaded:?}");

    // Every tool up front, none deferred: what a request without any search is.
    let every: Vec<ToolDefinition> = registry
        .definitions()
        .into_iter()
        .filter(|definition| definition.name != SEARCH_TOOL_NAME)
        .map(|mut definition| {
            definition.defer_loading = false;
            definition
        })
        .collect();
    let native = registry.definitions_for_native_search(&before);
    let referenced = registry.definitions_for_referenced_search(&before);
    let mut modes = Map::new();
    let mut write = |name: &str, tools: Value, read_after: &[String]| {
        let path = format!("{out}/{name}.json");
        std::fs::write(&path, serde_json::to_string(&tools).unwrap()).expect("written");
        modes.insert(name.to_owned(), json!({"loaded": read_after}));
    };
    let none: [String; 0] = [];
    write(
        "anthropic_every",
        anthropic::tools(&every, Strict::Off).value,
        &none,
    );
    write(
        "anthropic_native",
        anthropic::tools_with_search(&native, Strict::Off, ToolSearch::Bm25).value,
        &loaded,
    );
    write(
        "anthropic_referenced",
        anthropic::tools_with_search(&referenced, Strict::Off, ToolSearch::Client).value,
        &loaded,
    );
    write(
        "anthropic_appended_before",
        anthropic::tools(&registry.definitions_for(&before), Strict::Off).value,
        &none,
    );
    write(
        "anthropic_appended_after",
        anthropic::tools(&registry.definitions_for(&after), Strict::Off).value,
        &none,
    );
    write(
        "openai_every",
        openai_responses::tools(&every, Strict::Off).value,
        &none,
    );
    write(
        "openai_native",
        openai_responses::tools(&native, Strict::Off).value,
        &loaded,
    );
    write(
        "openai_appended_before",
        openai_responses::tools(&registry.definitions_for(&before), Strict::Off).value,
        &none,
    );
    write(
        "openai_appended_after",
        openai_responses::tools(&registry.definitions_for(&after), Strict::Off).value,
        &none,
    );
    std::fs::write(
        format!("{out}/modes.json"),
        serde_json::to_string_pretty(&Value::Object(modes)).unwrap(),
    )
    .expect("written");
    println!(
        "{TOOLS} tools; the search for {:?} loads {loaded:?}",
        query.query
    );
}

/// `tool_search`'s result for `query`, as the model would get it.
async fn search(registry: &ToolRegistry, query: &str) -> tool_core::ToolResultMessage {
    let call = ToolCall::new("call-1", SEARCH_TOOL_NAME, json!({"query": query}));
    let result = execute_tool_call(&call, registry, RunOptions::new()).await;
    assert!(!result.is_error, "{query:?}: {:?}", result.content);
    result
}
