//! Toolsets as a registry takes them: collisions naming both sides, the
//! name rules of the formats in use, the order definitions come out in,
//! and what `prepared`, `approval_required` and `renamed` change.

use serde_json::json;
use std::sync::Arc;
use tool_core::approval::{Approvals, Decision};
use tool_core::providers::{NameRule, ProviderFormat, Strict};
use tool_core::registry::RegistryError;
use tool_core::toolset::{IntoToolset, Toolset};
use tool_core::{
    DynamicTool, FailureKind, RunOptions, ToolCall, ToolOutput, ToolRegistry, execute_tool_call,
};

fn tool(name: &str, description: &str) -> DynamicTool {
    let answer = format!("ran {name}");
    DynamicTool::new(name, description, move |_args, _ctx| {
        let answer = answer.clone();
        async move { Ok(ToolOutput::text(answer)) }
    })
}

fn set(label: &str, names: &[&str]) -> Toolset {
    names
        .iter()
        .fold(Toolset::new(label), |set, name| set.with(tool(name, "")))
}

fn names(tools: &ToolRegistry) -> Vec<&str> {
    tools.iter().map(|tool| tool.name()).collect()
}

async fn run(
    tools: &ToolRegistry,
    name: &str,
    options: RunOptions,
) -> tool_core::ToolResultMessage {
    execute_tool_call(&ToolCall::new("c1", name, json!({})), tools, options).await
}

#[test]
fn a_collision_names_both_toolsets_and_adds_nothing_of_the_second() {
    let mut tools = ToolRegistry::new();
    tools
        .register_all(set("github", &["search", "close"]))
        .unwrap();
    let error = tools
        .register_all(set("jira", &["create", "search"]))
        .unwrap_err();
    assert_eq!(
        error,
        RegistryError::NameTaken {
            name: "search".into(),
            registered: "github".into(),
            incoming: "jira".into(),
        }
    );
    assert!(error.to_string().contains("Toolset::prefixed"), "{error}");
    // All or nothing: `create`, before the clash, was not added either.
    assert_eq!(names(&tools), ["close", "search"]);

    tools
        .register_all(set("jira", &["create", "search"]).prefixed("jira"))
        .unwrap();
    assert_eq!(
        names(&tools),
        ["close", "jira_create", "jira_search", "search"]
    );
}

#[test]
fn a_collision_inside_one_set_names_it_on_both_sides() {
    let error = ToolRegistry::new()
        .register_all(set("docs", &["read", "read"]))
        .unwrap_err();
    assert_eq!(
        error,
        RegistryError::NameTaken {
            name: "read".into(),
            registered: "docs".into(),
            incoming: "docs".into(),
        }
    );
}

#[test]
fn a_rename_avoids_a_collision_and_a_wrong_rename_is_reported() {
    let mut tools = ToolRegistry::new();
    tools.register_all(set("a", &["search"])).unwrap();
    tools
        .register_all(set("b", &["search", "fetch"]).renamed([("search", "find")]))
        .unwrap();
    assert_eq!(names(&tools), ["fetch", "find", "search"]);

    let error = ToolRegistry::new()
        .register_all(set("b", &["search"]).renamed([("serch", "find")]))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "Toolset b: renamed serch, which it does not have (it has: search)"
    );
}

#[tokio::test]
async fn a_renamed_tool_runs_under_its_new_name_only() {
    let mut tools = ToolRegistry::new();
    tools
        .register_all(set("fs", &["files.read"]).renamed([("files.read", "files_read")]))
        .unwrap();
    let result = run(&tools, "files_read", RunOptions::new()).await;
    assert_eq!(result.content[0].as_text(), Some("ran files.read"));
    assert_eq!(result.tool_name, "files_read");
    assert!(run(&tools, "files.read", RunOptions::new()).await.is_error);
}

#[test]
fn filtered_keeps_tools_by_name_or_annotations() {
    let read_only =
        |name: &str| tool(name, "").with_annotations(tool_core::ToolAnnotations::new().read_only());
    let set = Toolset::new("mixed")
        .with(read_only("get"))
        .with(tool("put", ""))
        .with(read_only("list"));
    let kept = set
        .clone()
        .filtered(|tool| tool.annotations().read_only == Some(true));
    let kept: Vec<&str> = kept.tools().iter().map(|tool| tool.name()).collect();
    assert_eq!(kept, ["get", "list"]);
    let by_name = set.filtered(|tool| tool.name() != "list");
    assert_eq!(by_name.len(), 2);
}

#[test]
fn a_format_in_use_refuses_a_name_at_registration_with_a_suggestion() {
    let mut tools =
        ToolRegistry::for_formats([ProviderFormat::Mcp, ProviderFormat::OpenAiChat(Strict::On)]);
    let error = tools.register(tool("files.read", "")).unwrap_err();
    let RegistryError::NameRefused {
        name,
        provider,
        suggestion,
        ..
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!((name.as_str(), *provider), ("files.read", "OpenAI"));
    assert_eq!(suggestion, "files_read");
    assert!(error.to_string().contains("not '.'"), "{error}");
    assert!(tools.is_empty());

    // MCP alone takes the dot.
    let mut mcp_only = ToolRegistry::for_formats([ProviderFormat::Mcp]);
    mcp_only.register(tool("files.read", "")).unwrap();

    // Prefixing is checked too: a prefix that pushes a name past OpenAI's
    // 64 characters is refused, with a name that fits.
    let long = "a".repeat(60);
    let error = tools
        .register_all(set("long", &[&long]).prefixed("github"))
        .unwrap_err();
    let RegistryError::NameRefused { suggestion, .. } = error else {
        panic!("{error:?}");
    };
    assert_eq!(suggestion.len(), 64);
    assert!(suggestion.starts_with("github_"));
}

#[test]
fn every_format_has_the_rule_its_provider_documents() {
    let rule = |format: ProviderFormat| format.name_rule().map(|rule| rule.provider);
    assert_eq!(rule(ProviderFormat::Neutral), None);
    assert_eq!(
        rule(ProviderFormat::Anthropic(Strict::Off)),
        Some("Anthropic")
    );
    assert_eq!(
        rule(ProviderFormat::OpenAiResponses(Strict::On)),
        Some("OpenAI")
    );
    assert_eq!(NameRule::ANTHROPIC.max_len, 64);
    assert_eq!(NameRule::MCP.max_len, 128);
    assert!(NameRule::GEMINI.check("ns:read").is_none());
    assert!(NameRule::GEMINI.check("9read").is_some());
}

#[test]
fn definitions_come_out_sorted_whatever_the_registration_order() {
    let all = [
        "write", "echo", "zeta", "Alpha", "read", "list", "_private", "a_b", "a-b",
    ];
    let mut expected: Vec<&str> = all.to_vec();
    expected.sort();
    // Each rotation and the reversal: different registration orders.
    let mut orders: Vec<Vec<&str>> = (0..all.len())
        .map(|shift| {
            let mut order = all.to_vec();
            order.rotate_left(shift);
            order
        })
        .collect();
    orders.push(all.iter().rev().copied().collect());
    let mut bytes_seen = None;
    for order in orders {
        let mut tools = ToolRegistry::new();
        for (index, name) in order.iter().enumerate() {
            // Singly and as sets: both go to the same sorted place.
            if index % 2 == 0 {
                tools.register(tool(name, "")).unwrap();
            } else {
                tools.register_all(set("s", &[name])).unwrap();
            }
        }
        assert_eq!(names(&tools), expected);
        let bytes = serde_json::to_vec(&tools.definitions_for(&RunOptions::new())).unwrap();
        let mcp = serde_json::to_vec(&ProviderFormat::Mcp.definitions(&tools.definitions()).value)
            .unwrap();
        match &bytes_seen {
            None => bytes_seen = Some((bytes, mcp)),
            Some(seen) => assert_eq!(seen, &(bytes, mcp), "order {order:?}"),
        }
    }
}

#[tokio::test]
async fn prepared_changes_a_definition_per_turn_and_hides_the_tool() {
    let mut tools = ToolRegistry::new();
    tools.register(tool("echo", "Echo")).unwrap();
    tools
        .register_all(
            set("ops", &["deploy", "rollback"]).prepared(|options, definition| {
                definition.description = format!("{} (this turn)", definition.name);
                // Renaming here has no effect: the registered name stays.
                definition.name = "renamed".into();
                options.loaded().iter().any(|name| name == "ops-on")
            }),
        )
        .unwrap();

    let off = RunOptions::new();
    let shown: Vec<String> = tools
        .definitions_for(&off)
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(shown, ["echo"]);
    let hidden = run(&tools, "deploy", off).await;
    assert_eq!(
        hidden.content[0].as_text(),
        Some("Tool deploy failed: not available in this turn (available: echo)")
    );

    let on = RunOptions::new().with_loaded(["ops-on"]);
    let shown = tools.definitions_for(&on);
    let described: Vec<(&str, &str)> = shown
        .iter()
        .map(|d| (d.name.as_str(), d.description.as_str()))
        .collect();
    assert_eq!(
        described,
        [
            ("deploy", "deploy (this turn)"),
            ("echo", "Echo"),
            ("rollback", "rollback (this turn)")
        ]
    );
    assert_eq!(
        run(&tools, "deploy", on).await.content[0].as_text(),
        Some("ran deploy")
    );
}

#[tokio::test]
async fn preparations_compose_outer_after_inner() {
    let mut tools = ToolRegistry::new();
    let prepared = set("s", &["t"])
        .prepared(|_, definition| {
            definition.description.push_str("inner");
            true
        })
        .prepared(|_, definition| {
            definition.description.push_str("+outer");
            true
        });
    tools.register_all(prepared).unwrap();
    assert_eq!(
        tools.definitions_for(&RunOptions::new())[0].description,
        "inner+outer"
    );
}

#[tokio::test]
async fn approval_required_asks_before_any_tool_of_the_set_runs() {
    let mut tools = ToolRegistry::new();
    tools.register(tool("free", "")).unwrap();
    tools
        .register_all(set("guarded", &["delete"]).approval_required())
        .unwrap();
    assert!(tools.get("delete").unwrap().needs_approval());
    assert!(!tools.get("free").unwrap().needs_approval());

    // No approvals configured: never run unasked.
    let result = run(&tools, "delete", RunOptions::new()).await;
    assert_eq!(result.failure_kind, Some(FailureKind::Denied));

    let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let approvals = Approvals::ask(move |request| {
        seen.lock().unwrap().push(request.tool_name.clone());
        async { Decision::Approve }
    });
    let options = RunOptions::new().with_approvals(approvals);
    let result = run(&tools, "delete", options.clone()).await;
    assert_eq!(result.content[0].as_text(), Some("ran delete"));
    run(&tools, "free", options).await;
    assert_eq!(*asked.lock().unwrap(), ["delete"]);
}

#[test]
fn a_registry_is_a_toolset_too() {
    let mut first = ToolRegistry::new();
    first.register(tool("echo", "")).unwrap();
    first.register_all(set("fs", &["read"])).unwrap();
    let mut second = ToolRegistry::new();
    second
        .register_all(first.into_toolset().prefixed("local"))
        .unwrap();
    assert_eq!(names(&second), ["local_echo", "local_read"]);
    // Each tool keeps where it came from.
    assert_eq!(second.get("local_read").unwrap().origin(), "fs");
    assert_eq!(second.get("local_echo").unwrap().origin(), "tool echo");
}

#[tokio::test]
async fn a_refusal_names_at_most_twenty_available_tools() {
    let names: Vec<String> = (0..50).map(|index| format!("t{index:02}")).collect();
    let mut tools = ToolRegistry::new();
    for name in &names {
        tools.register(tool(name, "")).unwrap();
    }
    let options = RunOptions::new().with_enabled(names[..30].to_vec());
    let refused = run(&tools, "t40", options).await;
    let expected = format!(
        "Tool t40 failed: not available in this turn (available: {} and 10 more)",
        names[..20].join(", ")
    );
    assert_eq!(refused.content[0].as_text(), Some(expected.as_str()));
}

#[test]
fn a_registry_with_deferred_tools_becomes_a_set_without_its_built_in_search() {
    let mut first = ToolRegistry::new();
    first.register(tool("echo", "")).unwrap();
    first
        .register_all(set("more", &["b", "a"]).deferred())
        .unwrap();
    assert!(first.get("tool_search").is_some());
    let set = first.into_toolset();
    let names: Vec<&str> = set.tools().iter().map(|tool| tool.name()).collect();
    assert_eq!(names, ["a", "b", "echo"]);
    // Rebuilt, it offers its own search again.
    let mut second = ToolRegistry::new();
    second.register_all(set).unwrap();
    assert!(second.get("tool_search").is_some());
    assert_eq!(second.len(), 3);
}
