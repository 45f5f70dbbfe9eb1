//! Ten thousand tools, the generated set the `many_tools` and
//! `search_latency` benches measure (tool-core/benches/support/many_tools.rs):
//! the set is the same on every run and every provider accepts its names,
//! and an agent's turn works at that size: only `tool_search` is sent up
//! front, a search finds the tool a request names, the next turn loads it,
//! and its calls run.

#[path = "../../../tool-core/benches/support/many_tools.rs"]
mod generator;

use generator::{QUERIES, TOOL_COUNT, deferred_toolset, queries, specs, tools};
use serde_json::json;
use std::collections::HashSet;
use std::sync::LazyLock;
use tool_core::providers::ProviderFormat;
use tool_core::{RunOptions, ToolCall, ToolRegistry, ToolResultMessage, execute_tool_call};

/// The ten thousand tools, deferred: built once for the tests that read it
/// (ten thousand schemas to compile, in a debug build).
static REGISTRY: LazyLock<ToolRegistry> = LazyLock::new(|| {
    let mut registry = ToolRegistry::new();
    registry
        .register_all(deferred_toolset(tools(&specs())))
        .expect("the generated names are unique");
    registry
});

async fn search(registry: &ToolRegistry, arguments: serde_json::Value) -> ToolResultMessage {
    let call = ToolCall::new("search-1", "tool_search", arguments);
    let result = execute_tool_call(&call, registry, RunOptions::new()).await;
    assert!(!result.is_error, "{:?}", result.content);
    result
}

fn found(result: &ToolResultMessage) -> Vec<&str> {
    result.details.as_ref().expect("details")["found"]
        .as_array()
        .expect("a list of names")
        .iter()
        .map(|name| name.as_str().expect("a name"))
        .collect()
}

#[test]
fn the_set_is_the_same_on_every_run_and_varied() {
    let specs = specs();
    assert_eq!(specs.len(), TOOL_COUNT);
    assert_eq!(TOOL_COUNT, 10_000);
    assert_eq!(specs, generator::specs(), "deterministic");

    let names: HashSet<&str> = specs.iter().map(|spec| spec.name.as_str()).collect();
    assert_eq!(names.len(), TOOL_COUNT, "every name once");
    let descriptions: HashSet<&str> = specs.iter().map(|spec| spec.description.as_str()).collect();
    assert_eq!(descriptions.len(), TOOL_COUNT, "every description differs");
    for name in [
        "github_search_issues",
        "jira_create_ticket",
        "slack_post_message",
        "calendar_list_events",
    ] {
        assert!(names.contains(name), "{name}");
    }

    let mut parameter_counts = [0usize; 6];
    for spec in &specs {
        let properties = spec.parameters["properties"]
            .as_object()
            .expect("properties");
        parameter_counts[properties.len()] += 1;
        for (name, property) in properties {
            let description = property["description"].as_str().unwrap_or_default();
            assert!(
                !description.is_empty(),
                "{}: {name} has no description",
                spec.name
            );
        }
        assert_eq!(
            spec.parameters["required"].as_array().map(Vec::len),
            Some(1),
            "{}",
            spec.name
        );
    }
    // Every count from 1 to 5 is common: each has more than a tenth of the tools.
    assert_eq!(parameter_counts[0], 0);
    for (count, tools) in parameter_counts.iter().enumerate().skip(1) {
        assert!(
            *tools > TOOL_COUNT / 10,
            "{tools} tools with {count} parameters"
        );
    }

    let queries = queries(2000);
    assert_eq!(queries.len(), 2000);
    assert_eq!(&queries[..QUERIES.len()], QUERIES.as_slice());
    assert_eq!(queries, generator::queries(2000));
}

#[test]
fn every_provider_accepts_every_name() {
    let mut registry = ToolRegistry::for_formats(ProviderFormat::ALL);
    registry
        .register_all(deferred_toolset(tools(&specs())))
        .expect("names every format's rule accepts");
    assert_eq!(registry.len(), TOOL_COUNT);
}

#[tokio::test]
async fn a_turn_sends_only_the_search_finds_the_tool_asked_for_and_runs_it() {
    let registry = &*REGISTRY;
    let first_turn = RunOptions::new();
    let shown: Vec<String> = registry
        .definitions_for(&first_turn)
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(shown, ["tool_search"]);

    // The request's words are in exactly one tool's name: it ranks first.
    for (query, expected) in [
        ("create a jira ticket", "jira_create_ticket"),
        ("search github issues", "github_search_issues"),
        ("post a slack message", "slack_post_message"),
        ("list calendar events", "calendar_list_events"),
        ("delete a kubernetes pod", "kubernetes_delete_pod"),
    ] {
        let result = search(registry, json!({"query": query})).await;
        let names = found(&result);
        assert_eq!(names.len(), 5, "{query}: {names:?}");
        assert_eq!(names[0], expected, "{query}: {names:?}");
    }

    let result = search(
        registry,
        json!({"query": "create a jira ticket", "limit": 3}),
    )
    .await;
    let next_turn = first_turn.load_found(std::slice::from_ref(&result));
    let shown: Vec<String> = registry
        .definitions_for(&next_turn)
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(shown[0], "tool_search");
    assert_eq!(
        shown[1..],
        found(&result)[..],
        "loaded after, in the order found"
    );

    let call = ToolCall::new("c1", "jira_create_ticket", json!({"title": "Login fails"}));
    let answer = execute_tool_call(&call, registry, next_turn).await;
    assert!(!answer.is_error, "{:?}", answer.content);
    assert_eq!(
        answer.content[0].as_text(),
        Some(r#"jira_create_ticket done with {"title":"Login fails"}"#)
    );
}

#[tokio::test]
async fn a_regex_finds_names_first_then_other_text() {
    let registry = &*REGISTRY;
    let result = search(
        registry,
        json!({"query": "^jira_create_", "mode": "regex", "limit": 20}),
    )
    .await;
    let names = found(&result);
    assert_eq!(names.len(), 10, "one per jira object: {names:?}");
    assert!(
        names.iter().all(|name| name.starts_with("jira_create_")),
        "{names:?}"
    );

    // `Europe/Paris` is only in `time_zone` parameters' descriptions.
    let result = search(
        registry,
        json!({"query": "europe/paris", "mode": "regex", "limit": 20}),
    )
    .await;
    let names = found(&result);
    assert_eq!(names.len(), 20);
    let specs = specs();
    for name in names {
        let spec = specs
            .iter()
            .find(|spec| spec.name == name)
            .expect("a generated tool");
        assert!(
            spec.parameters["properties"].get("time_zone").is_some(),
            "{name}"
        );
    }
}
