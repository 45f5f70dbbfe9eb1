//! `#[tool(example = ..)]` on functions and `#[tools]` methods: the
//! examples reach the definition in the order written, Anthropic's format
//! writes them as `input_examples`, OpenAI's leaves them out and says so,
//! the wire has `inputExamples`, and a registry refuses a tool whose
//! example its own parameters would refuse, a toolbox all or nothing.

use serde_json::{Value, json};
use tool_core::providers::{Strict, anthropic, openai_chat};
use tool_core::registry::RegistryError;
use tool_core::{Tool, ToolDefinition, ToolParams, ToolRegistry, tool, tools};

/// Find notes that mention a text
#[tool(
    read_only,
    example = json!({"query": "groceries"}),
    example = json!({"query": "todo", "limit": 3}),
)]
async fn find(query: String, #[param(default = 10, min = 1, max = 50)] limit: u32) -> String {
    format!("{query}:{limit}")
}

/// Echo one value
#[tool]
async fn plain(value: String) -> String {
    value
}

fn definition_of(tools: &ToolRegistry, name: &str) -> ToolDefinition {
    tools.get(name).expect("registered").definition().clone()
}

fn find_examples() -> Vec<Value> {
    vec![
        json!({"query": "groceries"}),
        json!({"query": "todo", "limit": 3}),
    ]
}

#[test]
fn a_function_keeps_its_examples_in_the_order_written() {
    assert_eq!(FindTool.examples(), find_examples());
    assert_eq!(
        ToolDefinition::of(&FindTool).input_examples,
        find_examples()
    );

    let mut tools = ToolRegistry::new();
    tools.register(FindTool).unwrap();
    assert_eq!(
        definition_of(&tools, "find").input_examples,
        find_examples()
    );
    assert_eq!(tools.definitions()[0].input_examples, find_examples());
    // The other options still apply beside the examples.
    assert_eq!(FindTool.annotations().read_only, Some(true));
    // A tool without `example` has none.
    assert!(PlainTool.examples().is_empty());
}

#[test]
fn anthropic_writes_the_examples_and_openai_reports_them_dropped() {
    let mut tools = ToolRegistry::new();
    tools.register(FindTool).unwrap();
    tools.register(PlainTool).unwrap();
    let definitions = tools.definitions();

    let claude = anthropic::tools(&definitions, Strict::Off);
    assert_eq!(claude.value[0]["name"], "find");
    assert_eq!(claude.value[0]["input_examples"], json!(find_examples()));
    assert_eq!(claude.value[1]["name"], "plain");
    assert!(
        claude.value[1].get("input_examples").is_none(),
        "{claude:?}"
    );
    assert!(claude.diagnostics.is_empty(), "{:?}", claude.diagnostics);

    let openai = openai_chat::tools(&definitions, Strict::Off);
    assert_eq!(openai.value[0]["function"]["name"], "find");
    assert!(
        !openai.value.to_string().contains("groceries"),
        "{}",
        openai.value
    );
    let notes: Vec<String> = openai.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        ["find: input examples dropped: OpenAI tool definitions have no place for them"]
    );
}

#[test]
fn the_wire_has_input_examples_only_when_there_are_some() {
    let find = serde_json::to_value(ToolDefinition::of(&FindTool)).unwrap();
    assert_eq!(find["inputExamples"], json!(find_examples()));
    let plain = serde_json::to_value(ToolDefinition::of(&PlainTool)).unwrap();
    assert!(plain.get("inputExamples").is_none(), "{plain}");
    // And back: the examples survive a round trip of the definition.
    let back: ToolDefinition = serde_json::from_value(find).unwrap();
    assert_eq!(back.input_examples, find_examples());
}

/// Arguments built by a function: an example is any `Value` expression.
fn large_query() -> Value {
    let mut arguments = serde_json::Map::new();
    arguments.insert("query".into(), Value::from("x".repeat(3)));
    Value::Object(arguments)
}

/// Find notes, with examples written three ways
#[tool(
    example = serde_json::json!({"query": "path"}),
    example = large_query(),
    example = Value::Object(serde_json::Map::new()),
)]
async fn any_expression(#[param(default)] query: String) -> String {
    query
}

#[test]
fn an_example_is_any_expression_of_type_value() {
    assert_eq!(
        AnyExpressionTool.examples(),
        [json!({"query": "path"}), json!({"query": "xxx"}), json!({})]
    );
    ToolRegistry::new().register(AnyExpressionTool).unwrap();
}

// ---------------------------------------------------------------------------
// `#[tools]` methods
// ---------------------------------------------------------------------------

struct Shelf;

#[tools]
impl Shelf {
    /// Take a book off the shelf
    #[tool(example = json!({"title": "Dune", "copies": 2}))]
    async fn take(&self, title: String, #[param(default = 1)] copies: u8) -> String {
        format!("{copies} x {title}")
    }

    /// Count the books on the shelf
    #[tool]
    async fn count(&self) -> String {
        "0".into()
    }
}

#[test]
fn a_method_carries_its_example() {
    let mut tools = ToolRegistry::new();
    tools.register_all(Shelf).unwrap();
    assert_eq!(
        definition_of(&tools, "take").input_examples,
        [json!({"title": "Dune", "copies": 2})]
    );
    assert!(definition_of(&tools, "count").input_examples.is_empty());
}

// ---------------------------------------------------------------------------
// Examples the tool's parameters refuse
// ---------------------------------------------------------------------------

/// Find notes, shown a number for a text
#[tool(example = json!({"query": "ok"}), example = json!({"query": 5}))]
async fn wrong_type(query: String) -> String {
    query
}

/// Find notes, shown no query
#[tool(example = json!({"limit": 3}))]
async fn missing_field(query: String, limit: Option<u32>) -> String {
    format!("{query}{limit:?}")
}

/// Find notes, shown a limit out of bounds
#[tool(example = json!({"query": "x", "limit": 0}))]
async fn out_of_bounds(query: String, #[param(min = 1)] limit: u32) -> String {
    format!("{query}{limit}")
}

/// Only these keys, none other.
#[derive(ToolParams)]
#[param(deny_unknown_fields)]
struct Filter {
    tag: String,
}

/// Find notes, shown a filter key the filter refuses
#[tool(example = json!({"filter": {"tags": "a"}}))]
async fn unknown_key(filter: Filter) -> String {
    filter.tag
}

/// Find notes, shown an array for its arguments
#[tool(example = json!(["x"]))]
async fn not_an_object(query: String) -> String {
    query
}

/// Find notes, shown a misspelled key that parse alone would drop
#[tool(example = json!({"query": "x", "limt": 3}))]
async fn misspelled(query: String, limit: Option<u32>) -> String {
    format!("{query}{limit:?}")
}

fn refusal<T: Tool>(tool: T) -> RegistryError {
    let mut tools = ToolRegistry::new();
    let error = tools.register(tool).unwrap_err();
    assert!(
        tools.is_empty(),
        "a refused tool is not registered: {tools:?}"
    );
    error
}

#[test]
fn a_registry_refuses_an_example_of_the_wrong_type() {
    let error = refusal(WrongTypeTool);
    assert!(
        matches!(&error, RegistryError::InvalidExample { tool, index: 1, .. } if tool == "wrong_type"),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "Tool wrong_type's example 1 does not parse with its parameters: query: expected string, got number 5"
    );
}

#[test]
fn a_registry_refuses_an_example_without_a_required_field() {
    assert_eq!(
        refusal(MissingFieldTool).to_string(),
        "Tool missing_field's example 0 does not parse with its parameters: query: missing required field"
    );
}

#[test]
fn a_registry_refuses_an_example_outside_a_constraint() {
    assert_eq!(
        refusal(OutOfBoundsTool).to_string(),
        "Tool out_of_bounds's example 0 does not parse with its parameters: limit: expected integer >= 1, got 0"
    );
}

#[test]
fn a_registry_refuses_an_example_with_a_key_the_type_denies() {
    assert_eq!(
        refusal(UnknownKeyTool).to_string(),
        "Tool unknown_key's example 0 does not parse with its parameters: filter.tag: missing required field (got \"tags\": did you mean \"tag\"?); filter.tags: unknown field (did you mean \"tag\"?)"
    );
}

#[test]
fn a_registry_refuses_an_example_with_a_key_the_schema_does_not_have() {
    // Parse drops undeclared keys; the schema the model is shown has
    // `additionalProperties: false`, and judges the example too.
    let error = refusal(MisspelledTool).to_string();
    assert!(
        error.starts_with("Tool misspelled's example 0 does not parse with its parameters: "),
        "{error}"
    );
    assert!(error.contains("limt"), "{error}");
}

#[test]
fn a_registry_refuses_an_example_that_is_not_an_object() {
    assert_eq!(
        refusal(NotAnObjectTool).to_string(),
        "Tool not_an_object's example 0 does not parse with its parameters: arguments: expected object, got array [\"x\"]"
    );
}

struct Desk;

#[tools]
impl Desk {
    /// Open a drawer
    #[tool(example = json!({"drawer": 1}))]
    async fn open(&self, drawer: u8) -> String {
        drawer.to_string()
    }

    /// Close a drawer
    #[tool(example = json!({"drawer": "top"}))]
    async fn close(&self, drawer: u8) -> String {
        drawer.to_string()
    }
}

#[test]
fn a_toolbox_with_one_bad_example_registers_nothing() {
    let mut tools = ToolRegistry::new();
    let error = tools.register_all(Desk).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Tool close's example 0 does not parse with its parameters: drawer: expected integer, got string \"top\""
    );
    assert!(tools.is_empty(), "{tools:?}");
    assert!(tools.get("open").is_none());
}
