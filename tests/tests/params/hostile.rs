//! Hostile arguments at the library level, through `execute_tool_call` and
//! `ToolParams::parse`: 100,000-deep nesting, a 50 MB string, a
//! million-element array, `1e400`, integers past their type's range. None
//! may panic or crash; each gets a paired error or a correct result, and an
//! error message stays small whatever came in.
//!
//! A value nested 100,000 deep is built by hand, level by level (`json!`
//! would recurse), never cloned or compared, and forgotten at the end:
//! dropping it recurses once per level, which is the test's stack, not the
//! library's, to protect.

use crate::support::text_of;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::num::NonZeroU64;
use tool_core::{
    DynamicTool, ExecutionMode, RunOptions, Tool, ToolCall, ToolContext, ToolError, ToolOutput,
    ToolParams, ToolRegistry, ToolResultMessage, execute_tool_call, execute_tool_calls,
    executor::HookDecision, params::MAX_PROBLEMS, params::ParamValue, tool,
};

const DEEP: usize = 100_000;
const MIB: usize = 1024 * 1024;
const BIG: usize = 50 * MIB;
const MILLION: usize = 1_000_000;

/// An error a model reads stays this small whatever the input's size.
const SMALL_MESSAGE: usize = 4096;

fn error_of(result: &ToolResultMessage) -> &str {
    assert!(
        result.is_error,
        "expected an error, got {:.200}",
        text_of(result)
    );
    result.details.as_ref().unwrap()["error"]
        .as_str()
        .expect("details.error")
}

fn object(entries: impl IntoIterator<Item = (&'static str, Value)>) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(key, value)| (key.to_owned(), value))
            .collect(),
    )
}

/// `[[[ ... null ... ]]]`, `depth` arrays deep.
fn deep_array(depth: usize) -> Value {
    let mut value = Value::Null;
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// `{"a":{"a":{ ... }}}`, `depth` objects deep.
fn deep_object(depth: usize) -> Value {
    let mut value = Value::Null;
    for _ in 0..depth {
        let mut level = Map::new();
        level.insert("a".into(), value);
        value = Value::Object(level);
    }
    value
}

/// `{"children":[{"children":[ ... ]}]}`, `depth` nodes deep.
fn deep_tree(depth: usize) -> Value {
    let mut value = object([("children", Value::Array(Vec::new()))]);
    for _ in 0..depth {
        value = object([("children", Value::Array(vec![value]))]);
    }
    value
}

/// `{"next":{"next":{ ... }}}`, `depth` links deep.
fn deep_list(depth: usize) -> Value {
    let mut value = Value::Object(Map::new());
    for _ in 0..depth {
        value = object([("next", value)]);
    }
    value
}

// ---------------------------------------------------------------------------
// The tools
// ---------------------------------------------------------------------------

/// Echo one value
#[tool]
async fn echo(value: String) -> String {
    value
}

/// Keeps any JSON value
#[tool]
async fn raw(value: Value) -> String {
    match value {
        Value::String(text) => format!("a string of {} bytes", text.len()),
        other => format!("a {}", if other.is_array() { "array" } else { "value" }),
    }
}

/// A recursive parameter type.
#[derive(ToolParams)]
struct Node {
    children: Vec<Node>,
}

/// A linked list.
#[derive(ToolParams)]
struct Link {
    next: Option<Box<Link>>,
}

/// A hand-written tool over the parameter type `P`: it answers
/// `answer(params)`. `schema` replaces the derived schema when given.
struct Typed<P> {
    name: &'static str,
    description: &'static str,
    schema: Option<fn() -> Value>,
    answer: fn(P) -> String,
}

impl<P> Typed<P> {
    fn new(name: &'static str, description: &'static str, answer: fn(P) -> String) -> Self {
        Typed {
            name,
            description,
            schema: None,
            answer,
        }
    }

    fn with_schema(mut self, schema: fn() -> Value) -> Self {
        self.schema = Some(schema);
        self
    }
}

impl<P: ToolParams + Send + 'static> Tool for Typed<P> {
    type Params = P;
    type Details = ();

    fn name(&self) -> &str {
        self.name
    }

    fn description(&self) -> &str {
        self.description
    }

    fn parameters(&self) -> Value {
        self.schema.map_or_else(P::json_schema, |schema| schema())
    }

    async fn execute(&self, params: P, _: ToolContext) -> Result<ToolOutput<()>, ToolError> {
        Ok(ToolOutput::text((self.answer)(params)))
    }
}

/// A hand-written schema for the recursive types, so that the tools here do
/// not depend on the derived one: `a_recursive_parameter_type_can_be_registered`
/// checks that, in a process of its own.
fn recursive_schema() -> Value {
    json!({"type": "object"})
}

/// Counts a tree's nodes below the root.
fn count_nodes(root: Node) -> String {
    let mut count = 0;
    let mut level = root.children;
    while let Some(node) = level.pop() {
        count += 1;
        level.extend(node.children);
    }
    count.to_string()
}

/// Measures a list.
fn list_length(head: Link) -> String {
    let mut length = 0;
    let mut link = head.next;
    while let Some(current) = link {
        length += 1;
        link = current.next;
    }
    length.to_string()
}

/// Counts strings
#[tool]
async fn strings(items: Vec<String>) -> String {
    items.len().to_string()
}

/// Counts bytes
#[tool]
async fn bytes(items: Vec<u8>) -> String {
    items.len().to_string()
}

/// Reads a float
#[tool]
async fn num(x: f64) -> String {
    x.to_string()
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "snake_case")]
enum Mode {
    Quick,
    Thorough,
}

/// Every integer type and both floats, each optional.
#[derive(ToolParams, Debug, Default, PartialEq)]
struct Numbers {
    a_u8: Option<u8>,
    a_i32: Option<i32>,
    a_i64: Option<i64>,
    a_u64: Option<u64>,
    a_usize: Option<usize>,
    a_non_zero: Option<NonZeroU64>,
    a_f32: Option<f32>,
    a_f64: Option<f64>,
}

/// Strict arguments, a map and an enum, for hostile keys and strings.
#[derive(ToolParams, Debug)]
#[param(deny_unknown_fields)]
struct Strict {
    #[param(default = 1)]
    count: u32,
    mode: Option<Mode>,
    tags: Option<BTreeMap<String, u32>>,
}

/// Shows its arguments as JSON.
fn shown<P: ToolParams>(params: P) -> String {
    params.to_json().to_string()
}

fn tools() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(EchoTool).unwrap();
    tools.register(RawTool).unwrap();
    tools
        .register(Typed::new("tree", "Counts nodes", count_nodes).with_schema(recursive_schema))
        .unwrap();
    tools
        .register(Typed::new("list", "Measures a list", list_length).with_schema(recursive_schema))
        .unwrap();
    tools.register(StringsTool).unwrap();
    tools.register(BytesTool).unwrap();
    tools.register(NumTool).unwrap();
    tools
        .register(Typed::new("numbers", "Reads numbers", shown::<Numbers>))
        .unwrap();
    tools
        .register(Typed::new(
            "strict",
            "Refuses unknown keys",
            shown::<Strict>,
        ))
        .unwrap();
    tools
        .register(DynamicTool::new(
            "dynamic",
            "Any object",
            |arguments, _| async move { Ok(ToolOutput::text(arguments.len().to_string())) },
        ))
        .unwrap();
    tools
}

/// Runs one call, with hooks that look at the parsed arguments: they see
/// whatever passed parsing, so they must cope with it too.
async fn run(call: &ToolCall) -> ToolResultMessage {
    let tools = tools();
    let ctx = RunOptions::new()
        .with_before_hook(|call| async move {
            // Looks at the arguments, as a policy would.
            assert!(call.arguments.is_object());
            Ok(HookDecision::Allow)
        })
        .with_after_hook(|call| async move { Ok(call.output) });
    let result = execute_tool_call(call, &tools, ctx).await;
    assert_eq!(result.tool_call_id, call.id, "the answer is paired");
    assert_eq!(result.tool_name, call.name);
    result
}

// ---------------------------------------------------------------------------
// 100,000-deep nesting
// ---------------------------------------------------------------------------

#[tokio::test]
async fn arguments_nested_100_000_deep_are_paired_errors() {
    let mut call = ToolCall::new("deep", "echo", object([("value", deep_array(DEEP))]));
    // Echoed as far as the cap, without descending further.
    let echoed_array = format!("array {}…", "[".repeat(tool_core::params::MAX_ECHO_CHARS));
    let echo = format!("value: expected string, got {echoed_array}");
    let cases = [
        ("echo", echo.as_str()),
        ("raw", "value: value nests deeper than 128 levels"),
        ("dynamic", "arguments: value nests deeper than 128 levels"),
        // `value` is not a field of `strings`: dropped, and `items` missing.
        ("strings", "items: missing required field"),
    ];
    for (name, expected) in cases {
        call.name = name.into();
        let result = run(&call).await;
        assert_eq!(error_of(&result), expected, "{name}");
    }
    // The whole arguments a deep array instead of an object.
    let array = ToolCall::new("deep-args", "echo", deep_array(DEEP));
    assert_eq!(
        error_of(&run(&array).await),
        format!("arguments: expected object, got {echoed_array}")
    );
    // Deep objects, under a `serde_json::Value` parameter and a dynamic tool.
    let mut objects = ToolCall::new(
        "deep-objects",
        "raw",
        object([("value", deep_object(DEEP))]),
    );
    assert_eq!(
        error_of(&run(&objects).await),
        "value: value nests deeper than 128 levels"
    );
    objects.name = "dynamic".into();
    assert_eq!(
        error_of(&run(&objects).await),
        "arguments: value nests deeper than 128 levels"
    );
    std::mem::forget(call);
    std::mem::forget(array);
    std::mem::forget(objects);
}

#[tokio::test]
async fn recursive_parameter_types_stop_at_their_nesting_limit() {
    let tree = ToolCall::new("tree", "tree", deep_tree(DEEP));
    let error = error_of(&run(&tree).await).to_owned();
    assert!(
        error.ends_with(": arguments nest deeper than 128 levels"),
        "{error:.300}"
    );
    assert!(
        error.starts_with("children[0].children[0]."),
        "{error:.300}"
    );
    assert!(error.len() < SMALL_MESSAGE);
    let list = ToolCall::new("list", "list", deep_list(DEEP));
    let error = error_of(&run(&list).await).to_owned();
    assert!(
        error.ends_with(": arguments nest deeper than 128 levels"),
        "{error:.300}"
    );
    assert!(error.starts_with("next.next."), "{error:.300}");

    // Directly through `ToolParams::parse`.
    let problems = Node::parse(&tree.arguments)
        .err()
        .expect("too deep to parse");
    assert_eq!(problems.count(), 1);
    assert_eq!(
        problems.problems()[0].message(),
        "arguments nest deeper than 128 levels"
    );

    // Within the limit, the same types parse and run.
    let shallow = ToolCall::new("shallow", "tree", deep_tree(50));
    assert_eq!(text_of(&run(&shallow).await), "50");
    let shallow = ToolCall::new("shallow", "list", deep_list(50));
    assert_eq!(text_of(&run(&shallow).await), "50");
    std::mem::forget(tree);
    std::mem::forget(list);
}

use crate::support::child_process::in_child_process;

#[test]
fn a_recursive_parameter_type_can_be_registered() {
    // The limits table of docs/running.md and MAX_NESTING's docs promise a
    // recursive type (`struct Node { children: Vec<Node> }`) a paired error
    // when fed 100,000 levels; that needs it registered, and
    // `ToolRegistry::register` builds its derived schema, which must not
    // recurse without end.
    in_child_process(
        module_path!(),
        "a_recursive_parameter_type_can_be_registered",
        || {
            let mut tools = ToolRegistry::new();
            tools
                .register(Typed::new("tree", "Uses the derived schema", |_: Node| {
                    "ran".into()
                }))
                .unwrap();
            assert_eq!(Link::json_schema()["type"], "object");
        },
    );
}

#[tokio::test]
async fn deep_calls_in_a_batch_leave_the_other_calls_alone() {
    let calls = vec![
        ToolCall::new("d0", "raw", object([("value", deep_array(DEEP))])),
        ToolCall::new("ok", "echo", json!({"value": "fine"})),
        ToolCall::new("d1", "tree", deep_tree(DEEP)),
        ToolCall::new("d2", "dynamic", object([("value", deep_object(DEEP))])),
    ];
    for mode in [ExecutionMode::Parallel, ExecutionMode::Sequential] {
        let results = execute_tool_calls(&calls, &tools(), RunOptions::new(), mode).await;
        let ids: Vec<&str> = results.iter().map(|r| r.tool_call_id.as_str()).collect();
        assert_eq!(ids, ["d0", "ok", "d1", "d2"]);
        assert_eq!(text_of(&results[1]), "fine");
        for index in [0, 2, 3] {
            assert!(error_of(&results[index]).contains("nest"));
        }
    }
    std::mem::forget(calls);
}

#[tokio::test]
async fn string_arguments_nested_100_000_deep_are_a_json_error() {
    // OpenAI sends arguments as JSON text: serde_json refuses the nesting.
    let text = format!("{{\"value\":{}{}}}", "[".repeat(DEEP), "]".repeat(DEEP));
    let call = ToolCall::new("deep-text", "raw", Value::String(text));
    let result = run(&call).await;
    assert_eq!(
        error_of(&result),
        "arguments: invalid JSON: recursion limit exceeded at line 1 column 136"
    );
    assert_eq!(
        text_of(&result),
        "Tool raw failed: arguments: invalid JSON: recursion limit exceeded at line 1 column 136"
    );
}

// ---------------------------------------------------------------------------
// A 50 MB string
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_50_mb_string_is_echoed_whole() {
    let big = "x".repeat(BIG);
    let call = ToolCall::new(
        "big",
        "echo",
        object([("value", Value::String(big.clone()))]),
    );
    let result = run(&call).await;
    assert!(!result.is_error);
    assert_eq!(result.content[0].as_text().map(str::len), Some(BIG));
    assert!(result.content[0].as_text() == Some(big.as_str()));

    // The same as JSON text (OpenAI style), with a multi-byte tail.
    // (Written by hand: `big` needs no escaping.)
    let tailed = format!("{big}é");
    let text = format!("{{\"value\":\"{tailed}\"}}");
    let call = ToolCall::new("big-text", "echo", Value::String(text));
    let result = run(&call).await;
    assert!(result.content[0].as_text() == Some(tailed.as_str()));
}

#[tokio::test]
async fn a_50_mb_string_in_the_wrong_place_gives_a_small_error() {
    let big = "y".repeat(BIG);
    // Echoed after its type, capped.
    let echoed = format!(
        "string \"{}…",
        "y".repeat(tool_core::params::MAX_ECHO_CHARS - 1)
    );
    let cases = [
        (
            "numbers",
            "a_u8",
            format!("a_u8: expected integer, got {echoed}"),
        ),
        (
            "strings",
            "items",
            format!("items: expected array, got {echoed}"),
        ),
    ];
    for (name, field, expected) in cases {
        let call = ToolCall::new("big", name, object([(field, Value::String(big.clone()))]));
        let result = run(&call).await;
        assert_eq!(error_of(&result), expected, "{name}");
        assert!(text_of(&result).len() < SMALL_MESSAGE);
    }
    // Any value is fine for a `serde_json::Value` parameter.
    let call = ToolCall::new(
        "big",
        "raw",
        object([("value", Value::String(big.clone()))]),
    );
    assert_eq!(
        text_of(&run(&call).await),
        format!("a string of {BIG} bytes")
    );
    // A string that is none of an enum's names is echoed, capped (only its
    // head is read).
    let call = ToolCall::new(
        "big-enum",
        "strict",
        object([("mode", Value::String("y".repeat(8 * MIB)))]),
    );
    let result = run(&call).await;
    let error = error_of(&result);
    let expected = format!(
        "mode: expected one of \"quick\", \"thorough\", got \"{}…",
        "y".repeat(tool_core::params::MAX_ECHO_CHARS - 1)
    );
    assert_eq!(error, expected);
    assert!(text_of(&result).len() < SMALL_MESSAGE);
    // A huge key next to a missing required field is no near miss of it.
    let call = ToolCall::new(
        "big-key",
        "echo",
        Value::Object(Map::from_iter([(big.clone(), json!("v"))])),
    );
    let result = run(&call).await;
    assert_eq!(error_of(&result), "value: missing required field");
    // An undeclared huge key is simply dropped.
    let call = ToolCall::new(
        "big-key",
        "numbers",
        Value::Object(Map::from_iter([(big, json!(1))])),
    );
    let result = run(&call).await;
    assert_eq!(text_of(&result), "{}");
}

#[tokio::test]
async fn a_50_mb_key_gives_a_small_error() {
    // Values are echoed at most MAX_ECHO_CHARS characters; a key reported
    // in a problem's path must not bring a 50 MB key back whole either.
    let big = "k".repeat(BIG);
    let unknown = ToolCall::new(
        "big-key",
        "strict",
        Value::Object(Map::from_iter([(big.clone(), json!(1))])),
    );
    let in_map = ToolCall::new(
        "big-map-key",
        "strict",
        json!({"tags": Value::Object(Map::from_iter([(big, json!("not a number"))]))}),
    );
    for call in [unknown, in_map] {
        let result = run(&call).await;
        let error = error_of(&result);
        assert!(
            error.len() < SMALL_MESSAGE,
            "{}: the error is {} bytes: {:.100}",
            call.id,
            error.len(),
            error
        );
    }
}

// ---------------------------------------------------------------------------
// A million-element array
// ---------------------------------------------------------------------------

#[tokio::test]
async fn a_million_wrong_items_list_twenty_problems_and_count_the_rest() {
    let numbers: Vec<Value> = (0..MILLION).map(|i| json!(i)).collect();
    let call = ToolCall::new("million", "strings", json!({"items": numbers}));
    let result = run(&call).await;
    let error = error_of(&result);
    let lines: Vec<&str> = error.lines().collect();
    assert_eq!(lines.len(), MAX_PROBLEMS + 1);
    assert_eq!(lines[0], "items[0]: expected string, got number 0");
    assert_eq!(lines[19], "items[19]: expected string, got number 19");
    assert_eq!(lines[20], "... and 999980 more problems");
    assert!(error.len() < SMALL_MESSAGE);
    assert!(text_of(&result).starts_with("Tool strings failed: items[0]: expected string"));

    // Directly through `ToolParams::parse`.
    let problems = StringsParams::parse(&call.arguments).err().unwrap();
    assert_eq!(problems.count(), MILLION);
    assert_eq!(problems.problems().len(), MAX_PROBLEMS);

    // Out-of-range bytes, and one bad item among a million good ones.
    let call = ToolCall::new("bytes", "bytes", json!({"items": vec![256; MILLION]}));
    let error = error_of(&run(&call).await).to_owned();
    assert!(error.starts_with("items[0]: expected integer <= 255, got 256\n"));
    assert!(error.ends_with("\n... and 999980 more problems"));
    let mut items = vec![json!(7); MILLION];
    items[MILLION - 1] = json!(-1);
    let call = ToolCall::new("bytes", "bytes", json!({"items": items}));
    assert_eq!(
        error_of(&run(&call).await),
        "items[999999]: expected integer >= 0, got -1"
    );
}

#[tokio::test]
async fn a_million_good_items_parse() {
    let call = ToolCall::new("million", "strings", json!({"items": vec!["s"; MILLION]}));
    assert_eq!(text_of(&run(&call).await), "1000000");
    let call = ToolCall::new("million", "bytes", json!({"items": vec![255; MILLION]}));
    assert_eq!(text_of(&run(&call).await), "1000000");
}

// ---------------------------------------------------------------------------
// Numbers: 1e400 and integer overflow
// ---------------------------------------------------------------------------

#[tokio::test]
async fn out_of_range_numbers_in_string_arguments_are_json_errors() {
    for (arguments, column) in [
        (r#"{"x": 1e400}"#, 11),
        (r#"{"x": -1e400}"#, 12),
        (r#"{"x": 1e999999999999}"#, 18),
    ] {
        let call = ToolCall::new("n", "num", Value::String(arguments.into()));
        let result = run(&call).await;
        assert_eq!(
            text_of(&result),
            format!(
                "Tool num failed: arguments: invalid JSON: number out of range at line 1 column {column}"
            ),
            "{arguments}"
        );
    }
    // Underflow is no error: the nearest float is zero.
    let call = ToolCall::new("n", "num", Value::String(r#"{"x": 1e-400}"#.into()));
    assert_eq!(text_of(&run(&call).await), "0");
    // The largest finite float is kept exactly.
    let call = ToolCall::new(
        "n",
        "num",
        Value::String(r#"{"x": 1.7976931348623157e308}"#.into()),
    );
    assert_eq!(text_of(&run(&call).await), f64::MAX.to_string());
}

/// Parses `text` (JSON arguments) with [`Numbers`], through the executor
/// both as a JSON value and as JSON text: the two must agree.
async fn numbers(text: &str) -> Result<Value, String> {
    let value: Value = serde_json::from_str(text).unwrap();
    let direct = Numbers::parse(&value)
        .map(|numbers| numbers.to_json())
        .map_err(|error| error.to_string());
    for arguments in [value.clone(), Value::String(text.into())] {
        let result = run(&ToolCall::new("numbers", "numbers", arguments)).await;
        let through_executor = if result.is_error {
            Err(error_of(&result).to_owned())
        } else {
            Ok(serde_json::from_str::<Value>(text_of(&result)).unwrap())
        };
        assert_eq!(through_executor, direct, "{text}");
    }
    direct
}

#[tokio::test]
async fn integers_past_their_range_are_refused_and_the_extremes_kept() {
    let refused = [
        (r#"{"a_u8": 256}"#, "a_u8: expected integer <= 255, got 256"),
        (r#"{"a_u8": -1}"#, "a_u8: expected integer >= 0, got -1"),
        (
            r#"{"a_i32": 2147483648}"#,
            "a_i32: expected integer <= 2147483647, got 2147483648",
        ),
        (
            r#"{"a_i64": 9223372036854775808}"#,
            "a_i64: expected integer <= 9223372036854775807, got 9223372036854775808",
        ),
        (
            r#"{"a_u64": 18446744073709551616}"#,
            "a_u64: expected integer <= 18446744073709551615, got ",
        ),
        (
            r#"{"a_u64": 1e300}"#,
            "a_u64: expected integer <= 18446744073709551615, got ",
        ),
        (
            r#"{"a_usize": -1e20}"#,
            "a_usize: expected integer >= 0, got ",
        ),
        (
            r#"{"a_non_zero": 0}"#,
            "a_non_zero: expected integer >= 1, got 0",
        ),
        (
            r#"{"a_u64": 1.5}"#,
            "a_u64: expected integer, got number 1.5",
        ),
        (r#"{"a_f32": 1e39}"#, "a_f32: "),
    ];
    for (arguments, expected) in refused {
        let error = numbers(arguments).await.unwrap_err();
        assert!(error.starts_with(expected), "{arguments}: {error}");
        assert_eq!(error.lines().count(), 1, "{arguments}: {error}");
    }
    let kept = [
        (
            r#"{"a_u64": 18446744073709551615}"#,
            json!({"a_u64": u64::MAX}),
        ),
        (
            r#"{"a_i64": -9223372036854775808}"#,
            json!({"a_i64": i64::MIN}),
        ),
        (
            r#"{"a_i64": 9223372036854775807}"#,
            json!({"a_i64": i64::MAX}),
        ),
        (
            r#"{"a_u64": 1e19}"#,
            json!({"a_u64": 10_000_000_000_000_000_000_u64}),
        ),
        (r#"{"a_u8": 255.0}"#, json!({"a_u8": 255})),
        (
            r#"{"a_f64": 1.7976931348623157e308}"#,
            json!({"a_f64": f64::MAX}),
        ),
    ];
    for (arguments, expected) in kept {
        assert_eq!(numbers(arguments).await, Ok(expected), "{arguments}");
    }
}

/// Numbers are judged as serde_json holds them: it reads
/// -9223372036854775809 (out of i64's range) as the float -2^63, which is
/// i64::MIN exactly, so parse accepts it, as a JSON Schema validator given
/// the same `Value` does. Nothing is left to tell the two apart.
#[tokio::test]
async fn an_integer_just_below_i64_min_is_read_as_serde_json_rounds_it() {
    let parsed = numbers(r#"{"a_i64": -9223372036854775809}"#).await;
    assert_eq!(parsed, Ok(json!({"a_i64": i64::MIN})), "{parsed:?}");
}
