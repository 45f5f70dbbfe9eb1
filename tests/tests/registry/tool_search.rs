//! Deferred tools and `tool_search`: what a turn shows before and after a
//! search, the prompt-cache property (a search only appends), the search's
//! modes and refusals, and each format's shape for deferral.

use serde_json::{Value, json};
use tool_core::executor::Caller;
use tool_core::providers::{ProviderFormat, Strict, anthropic, openai_chat, openai_responses};
use tool_core::registry::RegistryError;
use tool_core::toolset::{SEARCH_TOOL_NAME, Toolset, found_tools};
use tool_core::{
    DynamicTool, ExecutionMode, RunOptions, ToolCall, ToolContext, ToolOutput, ToolRegistry,
    ToolResultMessage, execute_tool_call, execute_tool_calls,
};

fn tool(name: &str, description: &str) -> DynamicTool {
    let answer = format!("ran {name}");
    DynamicTool::new(name, description, move |_args, _ctx| {
        let answer = answer.clone();
        async move { Ok(ToolOutput::text(answer)) }
    })
}

/// Two tools up front, five behind a search.
fn registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(tool("echo", "Echo a value back")).unwrap();
    tools
        .register(tool("read_file", "Read a file from the workspace"))
        .unwrap();
    let city = json!({"type": "object", "properties": {"city": {"type": "string", "description": "City name, as in Paris"}}});
    tools
        .register_all(
            Toolset::new("extra")
                .with(
                    tool("weather_current", "Get the current weather")
                        .with_parameters(city.clone()),
                )
                .with(
                    tool(
                        "weather_forecast",
                        "Forecast the weather for the coming days",
                    )
                    .with_parameters(city),
                )
                .with(tool("stock_quote", "Get the latest price of a stock"))
                .with(tool("calendar_create_event", "Create a calendar event"))
                .with(tool(
                    "slack_post_message",
                    "Post a message to a Slack channel",
                ))
                .deferred(),
        )
        .unwrap();
    tools
}

async fn search(tools: &ToolRegistry, arguments: Value) -> ToolResultMessage {
    let call = ToolCall::new("s1", SEARCH_TOOL_NAME, arguments);
    execute_tool_call(&call, tools, RunOptions::new()).await
}

fn names(definitions: &[tool_core::ToolDefinition]) -> Vec<&str> {
    definitions.iter().map(|d| d.name.as_str()).collect()
}

#[tokio::test]
async fn a_search_finds_by_words_in_names_descriptions_and_parameters() {
    let tools = registry();
    let result = search(&tools, json!({"query": "weather in Paris"})).await;
    assert!(!result.is_error, "{result:?}");
    let found = found_tools(std::slice::from_ref(&result));
    assert_eq!(found, ["weather_current", "weather_forecast"]);
    // The model reads the definitions themselves.
    let text = result.content[0].as_text().unwrap();
    assert!(
        text.starts_with("Found 2 tools for \"weather in Paris\""),
        "{text}"
    );
    assert!(text.contains(r#""name":"weather_current""#), "{text}");
    assert!(text.contains(r#""city""#), "{text}");

    // A parameter's description alone is enough.
    let by_parameter = search(&tools, json!({"query": "city"})).await;
    assert_eq!(found_tools(&[by_parameter]).len(), 2);
    // Tools sent up front are not searched: they are already shown.
    let up_front = search(&tools, json!({"query": "echo"})).await;
    assert_eq!(
        up_front.content[0].as_text(),
        Some("No tool matches \"echo\"; try other words.")
    );
    assert!(!up_front.is_error);
}

#[tokio::test]
async fn the_regex_mode_matches_names_first_and_a_limit_caps_the_results() {
    let tools = registry();
    let result = search(&tools, json!({"query": "^(stock|slack)_", "mode": "regex"})).await;
    assert_eq!(
        found_tools(&[result]),
        ["slack_post_message", "stock_quote"]
    );
    // Case-insensitive; a description match comes after the name matches.
    let result = search(
        &tools,
        json!({"query": "CALENDAR|message", "mode": "regex"}),
    )
    .await;
    assert_eq!(
        found_tools(&[result]),
        ["calendar_create_event", "slack_post_message"]
    );
    let capped = search(&tools, json!({"query": "e", "mode": "regex", "limit": 2})).await;
    assert_eq!(found_tools(&[capped]).len(), 2);
}

#[tokio::test]
async fn a_bad_search_is_a_paired_error_that_says_what_was_wrong() {
    let tools = registry();
    let bad_regex = search(&tools, json!({"query": "(", "mode": "regex"})).await;
    assert!(bad_regex.is_error);
    let text = bad_regex.content[0].as_text().unwrap();
    assert!(text.contains("the pattern is not a valid regex"), "{text}");
    let too_long = search(&tools, json!({"query": "a".repeat(201), "mode": "regex"})).await;
    assert!(
        too_long.content[0]
            .as_text()
            .unwrap()
            .contains("longer than 200 characters")
    );
    let no_query = search(&tools, json!({"limit": 3})).await;
    assert!(no_query.is_error);
    assert!(
        no_query.content[0].as_text().unwrap().contains("query"),
        "{no_query:?}"
    );
    let too_many = search(&tools, json!({"query": "x", "limit": 500})).await;
    assert!(too_many.is_error);
    // An error finds nothing to load.
    assert!(found_tools(&[bad_regex, too_many]).is_empty());
}

#[tokio::test]
async fn a_turn_shows_the_core_then_what_searches_loaded_and_never_rewrites_earlier_bytes() {
    let tools = registry();
    let turn_one = RunOptions::new();
    let first = tools.definitions_for(&turn_one);
    assert_eq!(names(&first), ["echo", "read_file", "tool_search"]);
    let first_bytes: Vec<Vec<u8>> = first
        .iter()
        .map(|d| serde_json::to_vec(d).unwrap())
        .collect();

    let calls = [ToolCall::new(
        "s1",
        SEARCH_TOOL_NAME,
        json!({"query": "stock price"}),
    )];
    let results =
        execute_tool_calls(&calls, &tools, turn_one.clone(), ExecutionMode::Parallel).await;
    let turn_two = turn_one.load_found(&results);
    assert_eq!(turn_two.loaded(), ["stock_quote"]);
    let calls = [ToolCall::new(
        "s2",
        SEARCH_TOOL_NAME,
        json!({"query": "weather forecast"}),
    )];
    let results =
        execute_tool_calls(&calls, &tools, turn_two.clone(), ExecutionMode::Parallel).await;
    let turn_three = turn_two.load_found(&results);
    let third = tools.definitions_for(&turn_three);
    assert_eq!(
        names(&third),
        [
            "echo",
            "read_file",
            "tool_search",
            "stock_quote",
            "weather_forecast",
            "weather_current"
        ]
    );
    // The prompt-cache property: every definition sent before is sent
    // again with the same bytes at the same place; loaded ones only follow.
    for (index, bytes) in first_bytes.iter().enumerate() {
        assert_eq!(&serde_json::to_vec(&third[index]).unwrap(), bytes);
    }
    // A loaded definition is a plain one (no deferral flag on the wire).
    assert_eq!(third[3], {
        let mut plain = tools.get("stock_quote").unwrap().definition().clone();
        plain.defer_loading = false;
        plain
    });
    // Loading the same tool again, or a tool that is not deferred, changes nothing.
    let again = turn_three
        .clone()
        .with_loaded(["stock_quote", "echo", "missing"]);
    assert_eq!(tools.definitions_for(&again), third);
}

#[tokio::test]
async fn a_deferred_tool_can_be_called_before_it_is_loaded() {
    // A provider's own search loads it on its side; the call is checked
    // against the tool's real schema either way.
    let tools = registry();
    let call = ToolCall::new("c1", "stock_quote", json!({}));
    let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
    assert_eq!(result.content[0].as_text(), Some("ran stock_quote"));
}

#[test]
fn the_built_in_search_name_is_reserved_while_tools_are_deferred() {
    let mut tools = registry();
    let error = tools.register(tool(SEARCH_TOOL_NAME, "mine")).unwrap_err();
    assert!(
        matches!(&error, RegistryError::NameTaken { registered, .. }
            if registered == "the built-in search over deferred tools"),
        "{error:?}"
    );
    // Without deferred tools, the name is free; deferring then clashes.
    let mut own = ToolRegistry::new();
    own.register(tool(SEARCH_TOOL_NAME, "mine")).unwrap();
    let error = own
        .register_all(Toolset::new("late").with(tool("x", "")).deferred())
        .unwrap_err();
    assert!(
        matches!(&error, RegistryError::NameTaken { incoming, .. }
            if incoming == "the built-in search over deferred tools"),
        "{error:?}"
    );
}

#[test]
fn native_formats_mark_deferred_tools_and_add_their_own_search_tool() {
    let tools = registry();
    let native = tools.definitions_for_native_search(&RunOptions::new());
    assert!(!names(&native).contains(&SEARCH_TOOL_NAME));
    assert_eq!(native.len(), 7);

    // https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool
    let claude = anthropic::tools(&native, Strict::Off);
    assert!(claude.diagnostics.is_empty(), "{:?}", claude.diagnostics);
    let claude = claude.value.as_array().unwrap().clone();
    assert_eq!(claude.len(), 8);
    assert_eq!(
        claude[7],
        json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
    );
    let deferred: Vec<&str> = claude
        .iter()
        .filter(|tool| tool["defer_loading"] == true)
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        deferred,
        [
            "calendar_create_event",
            "slack_post_message",
            "stock_quote",
            "weather_current",
            "weather_forecast"
        ]
    );
    assert!(claude[1].get("defer_loading").is_none());

    // https://developers.openai.com/api/docs/guides/tools-tool-search
    let responses = openai_responses::tools(&native, Strict::On).value;
    assert_eq!(
        responses.as_array().unwrap().last().unwrap(),
        &json!({"type": "tool_search"})
    );
    assert_eq!(responses[0]["defer_loading"], true);

    // Without a native search: sent in full, and said so.
    let chat = openai_chat::tools(&native, Strict::Off);
    assert_eq!(chat.value.as_array().unwrap().len(), 7);
    assert_eq!(chat.diagnostics.len(), 5);
    assert!(
        chat.diagnostics[0]
            .message
            .starts_with("deferred loading: OpenAI has no tool search")
    );

    // The portable list has no flag for any format to find.
    for format in ProviderFormat::ALL {
        let converted = format.definitions(&tools.definitions_for(&RunOptions::new()));
        let about_deferral = converted
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.message.contains("deferred"));
        assert_eq!(about_deferral.count(), 0, "{format}");
        assert!(
            !converted.value.to_string().contains("defer_loading"),
            "{format}"
        );
    }
}

#[test]
fn only_enabled_tools_are_shown_or_loaded_and_the_search_with_them() {
    let tools = registry();
    let options = RunOptions::new()
        .with_enabled(["echo", "weather_current"])
        .with_loaded(["weather_current", "stock_quote"]);
    // Not enabled: neither shown up front nor loaded, the search included.
    assert_eq!(
        names(&tools.definitions_for(&options)),
        ["echo", "weather_current"]
    );
}

/// [`registry`] and one more deferred tool, which its toolset shows only
/// to a caller with the scope `admin`.
fn with_an_admin_tool() -> ToolRegistry {
    let mut tools = registry();
    tools
        .register_all(
            Toolset::new("admin")
                .with(tool("weather_override", "Override the weather station"))
                .deferred()
                .prepared(|options, _| {
                    options
                        .caller()
                        .is_some_and(|caller| caller.has_scope("admin"))
                }),
        )
        .unwrap();
    tools
}

/// What a search run by the executor under `options` found, and its result.
async fn found_with(
    tools: &ToolRegistry,
    options: RunOptions,
    arguments: Value,
) -> (Vec<String>, ToolResultMessage) {
    let call = ToolCall::new("s1", SEARCH_TOOL_NAME, arguments);
    let result = execute_tool_call(&call, tools, options).await;
    assert!(!result.is_error, "{result:?}");
    (found_tools(std::slice::from_ref(&result)), result)
}

/// A search finds only what the call's options make callable: a caller
/// restricted to some tools never reads the others' definitions in it.
#[tokio::test]
async fn a_search_finds_only_the_tools_the_options_make_callable() {
    let tools = with_an_admin_tool();
    let admin = RunOptions::new().with_caller(Caller::new().with_scopes(["admin"]));
    let (all, _) = found_with(&tools, admin.clone(), json!({"query": "weather"})).await;
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(all.iter().any(|name| name == "weather_override"), "{all:?}");

    // Enabled: the search itself and one weather tool. The limit counts
    // only what may be found: weather_current ranks first for these words,
    // and is not enabled.
    let some = admin.with_enabled([SEARCH_TOOL_NAME, "echo", "weather_forecast"]);
    let (first, _) = found_with(
        &tools,
        RunOptions::new(),
        json!({"query": "current weather"}),
    )
    .await;
    assert_eq!(first[0], "weather_current");
    let query = json!({"query": "current weather", "limit": 1});
    let (one, result) = found_with(&tools, some.clone(), query).await;
    assert_eq!(one, ["weather_forecast"]);
    let text = result.content[0].as_text().unwrap();
    assert!(!text.contains("weather_current"), "{text}");
    let every = json!({"query": ".", "mode": "regex", "limit": 20});
    assert_eq!(
        found_with(&tools, some, every).await.0,
        ["weather_forecast"]
    );

    // A preparation that hides a tool hides it from the search too.
    let (no_admin, _) = found_with(&tools, RunOptions::new(), json!({"query": "weather"})).await;
    assert_eq!(no_admin, ["weather_current", "weather_forecast"]);

    // Run by hand: the context `for_call` gives carries its options; a
    // bare context carries none, and its search sees every deferred tool.
    let search = tools.get(SEARCH_TOOL_NAME).unwrap();
    let arguments = json!({"query": "weather"});
    let enabled = RunOptions::new().with_enabled([SEARCH_TOOL_NAME, "weather_current"]);
    let by_hand = search
        .prepare(&arguments)
        .unwrap()
        .run(enabled.for_call("h1"))
        .await;
    assert_eq!(
        by_hand.unwrap().details,
        Some(json!({"found": ["weather_current"]}))
    );
    let bare = search
        .prepare(&arguments)
        .unwrap()
        .run(ToolContext::new("h2"))
        .await;
    let bare = bare.unwrap().details.unwrap();
    assert_eq!(bare["found"].as_array().unwrap().len(), 3, "{bare}");
}

#[test]
fn the_search_is_read_only_and_says_so() {
    let tools = registry();
    let search = tools.get(SEARCH_TOOL_NAME).unwrap();
    assert_eq!(search.annotations().read_only, Some(true));
}

#[test]
fn examples_are_carried_where_a_format_has_a_place_for_them() {
    let mut tools = ToolRegistry::new();
    let parameters =
        json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
    tools
        .register(
            tool("find", "Find")
                .with_parameters(parameters)
                .with_example(json!({"q": "rust"})),
        )
        .unwrap();
    let definitions = tools.definitions();
    assert_eq!(
        serde_json::to_value(&definitions[0]).unwrap()["inputExamples"],
        json!([{"q": "rust"}])
    );
    let claude = anthropic::tools(&definitions, Strict::On);
    assert_eq!(claude.value[0]["input_examples"], json!([{"q": "rust"}]));
    assert!(claude.diagnostics.is_empty());
    for format in [
        ProviderFormat::OpenAiChat(Strict::Off),
        ProviderFormat::Mcp,
        ProviderFormat::Gemini(tool_core::providers::gemini::Dialect::JsonSchema),
    ] {
        let converted = format.definitions(&definitions);
        assert!(!converted.value.to_string().contains("rust"), "{format}");
        assert_eq!(converted.diagnostics.len(), 1, "{format}");
        assert!(
            converted.diagnostics[0]
                .message
                .starts_with("input examples dropped"),
            "{format}"
        );
    }
}
