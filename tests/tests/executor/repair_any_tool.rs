//! Repair for tools whose schema is only known at run time, and the bounds
//! of what a repair puts on a result: a `DynamicTool` with a schema checks
//! each call's arguments against it (so `{"n":"2"}` is refused, or repaired,
//! exactly as for a derived tool); a schema that does not compile is a
//! registration error; the note the model reads stays short whatever the
//! number of repairs, and `repairs` keeps excerpts of huge values.

use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};
use tool_core::{
    DynamicTool, RunOptions, ToolCall, ToolOutput, ToolRegistry, registry::RegistryError,
    repair::MAX_NOTE_CHARS, repair::MAX_REPAIR_VALUE_BYTES, repair::Repair, repair::RepairPolicy,
    repair::RepairRule, tool,
};

use crate::support::bounded::run_call;
use crate::support::text_of;

/// The arguments each run of the closure got.
type Seen = Arc<Mutex<Vec<Map<String, Value>>>>;

/// A dynamic tool with `schema`, recording the arguments its closure gets.
fn recording(schema: Value) -> (ToolRegistry, Seen) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let got = Arc::clone(&seen);
    let tool = DynamicTool::new("take", "Take n items", move |args, _ctx| {
        got.lock().unwrap().push(args);
        async { Ok(ToolOutput::text("done")) }
    })
    .try_with_parameters(schema)
    .expect("the schema compiles");
    let mut tools = ToolRegistry::new();
    tools.register(tool).unwrap();
    (tools, seen)
}

fn n_schema() -> Value {
    json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
}

fn repairing() -> RunOptions {
    RunOptions::new().with_repair(RepairPolicy::all())
}

#[tokio::test]
async fn a_dynamic_tool_refuses_arguments_its_schema_refuses_as_a_derived_tool_does() {
    let (tools, seen) = recording(n_schema());
    let call = ToolCall::new("c1", "take", json!({"n": "2"}));
    let result = run_call(&call, &tools, RunOptions::new()).await;
    assert!(result.is_error);
    assert_eq!(
        text_of(&result),
        "Tool take failed: n: expected integer, got string \"2\""
    );
    assert!(result.repairs.is_empty());

    let missing = run_call(
        &ToolCall::new("c2", "take", json!({})),
        &tools,
        RunOptions::new(),
    )
    .await;
    assert_eq!(
        text_of(&missing),
        "Tool take failed: n: missing required field"
    );
    assert!(seen.lock().unwrap().is_empty(), "the closure never ran");

    // The derived tool of the same schema says the same.
    /// Take n items
    #[tool]
    async fn take(n: i64) -> String {
        format!("took {n}")
    }
    let mut derived = ToolRegistry::new();
    derived.register(TakeTool).unwrap();
    let theirs = run_call(&call, &derived, RunOptions::new()).await;
    assert_eq!(text_of(&theirs), text_of(&result));
}

#[tokio::test]
async fn with_repair_the_closure_gets_the_repaired_arguments_and_the_result_records_it() {
    let (tools, seen) = recording(n_schema());
    let call = ToolCall::new("c1", "take", json!({"n": "2"}));
    let result = run_call(&call, &tools, repairing()).await;
    assert!(!result.is_error, "{result:?}");
    assert_eq!(text_of(&result), "done");
    assert_eq!(
        *seen.lock().unwrap(),
        [json!({"n": 2}).as_object().unwrap().clone()]
    );
    assert_eq!(
        result.repairs,
        [Repair::new(
            "n",
            &json!("2"),
            &json!(2),
            RepairRule::StringToScalar
        )]
    );
    assert_eq!(
        result.content[1].as_text(),
        Some(
            "[Arguments repaired: n: \"2\" read as 2 (a number or boolean written as a string). \
             Next time, send them as the schema says.]"
        )
    );
}

#[tokio::test]
async fn arguments_repair_cannot_fix_list_every_problem_with_the_rule_a_repaired_value_broke() {
    let schema = json!({
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        },
        "required": ["n"],
    });
    let (tools, seen) = recording(schema);
    // `n` can be repaired but is then below its minimum, which the model
    // is told with what it sent; `tags` is too long.
    let call = ToolCall::new("c1", "take", json!({"n": "0", "tags": ["a", "b", "c"]}));
    let result = run_call(&call, &tools, repairing()).await;
    assert!(result.is_error);
    assert_eq!(
        text_of(&result),
        "Tool take failed: n: expected integer >= 1, got string \"0\"\n\
         tags: expected array of at most 2 items, got 3"
    );
    assert_eq!(result.content.len(), 1, "no note of repairs");
    assert!(
        result.repairs.is_empty(),
        "a repair that did not help is not recorded"
    );
    assert!(seen.lock().unwrap().is_empty());
}

#[test]
fn a_schema_that_does_not_compile_is_refused_at_registration_not_at_a_call() {
    let broken =
        json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": "1"}}});
    let tool = || DynamicTool::new("take", "", |_args, _ctx| async { Ok(ToolOutput::text("")) });

    let error = tool().try_with_parameters(broken.clone()).unwrap_err();
    assert!(
        error.message().ends_with("(at /properties/n/minimum)"),
        "{error}"
    );

    let mut tools = ToolRegistry::new();
    let refused = tools.register(tool().with_parameters(broken)).unwrap_err();
    assert_eq!(
        refused,
        RegistryError::InvalidSchema {
            tool: "take".to_owned(),
            error: error.clone()
        }
    );
    assert_eq!(
        refused.to_string(),
        format!("Tool take has a parameters schema that is {error}")
    );
    assert!(tools.is_empty());
    // Without a schema, any object is still accepted.
    tools.register(tool()).unwrap();
}

/// Takes ids.
#[tool]
async fn ids(ids: Vec<u64>) -> String {
    format!("{} ids", ids.len())
}

#[tokio::test]
async fn the_note_stays_short_however_many_repairs_there_are() {
    let mut tools = ToolRegistry::new();
    tools.register(IdsTool).unwrap();
    let sent: Vec<String> = (0..2000).map(|i| i.to_string()).collect();
    let call = ToolCall::new("c1", "ids", json!({ "ids": sent }));
    let result = run_call(&call, &tools, repairing()).await;
    assert_eq!(text_of(&result), "2000 ids");
    assert_eq!(result.repairs.len(), 2000, "every repair is on the result");
    let note = result.content[1].as_text().unwrap();
    assert!(
        note.chars().count() <= MAX_NOTE_CHARS,
        "{} chars",
        note.len()
    );
    assert!(
        note.starts_with("[Arguments repaired: ids[0]: \"0\" read as 0, ids[1]: \"1\" read as 1, "),
        "{note}"
    );
    let listed = note.matches(" read as ").count();
    assert!(
        note.ends_with(&format!(
            " (a number or boolean written as a string); and {} more repairs. \
             Next time, send them as the schema says.]",
            2000 - listed
        )),
        "{note}"
    );
}

#[tokio::test]
async fn repairing_ten_megabytes_of_json_text_puts_excerpts_on_the_wire() {
    let schema = json!({
        "type": "object",
        "properties": {"data": {"type": "object", "properties": {"text": {"type": "string"}}}},
    });
    let (tools, seen) = recording(schema);
    let inner = json!({"text": "x".repeat(10 << 20)});
    let text = inner.to_string();
    let call = ToolCall::new("c1", "take", json!({ "data": text }));
    let result = run_call(&call, &tools, repairing()).await;
    assert_eq!(
        seen.lock().unwrap()[0]["data"],
        inner,
        "the tool got it whole"
    );

    let [repair] = result.repairs.as_slice() else {
        panic!("one repair: {:?}", result.repairs.len())
    };
    assert_eq!(repair.rule, RepairRule::JsonText);
    // The JSON text of the string sent adds its quotes and escapes.
    assert_eq!(
        repair.sent_bytes,
        Some(Value::String(text.clone()).to_string().len() as u64)
    );
    assert_eq!(repair.used_bytes, Some(text.len() as u64));
    assert_eq!(
        repair.used.as_str().unwrap(),
        &text[..MAX_REPAIR_VALUE_BYTES]
    );

    let mut wire = Vec::new();
    result.write_json(&mut wire).unwrap();
    assert!(wire.len() < 2_000, "{} bytes", wire.len());
    assert_eq!(serde_json::to_vec(&result).unwrap(), wire);
    let line = String::from_utf8(wire).unwrap();
    let sizes = format!(
        r#""rule":"json_text","sentBytes":{},"usedBytes":{}}}"#,
        repair.sent_bytes.unwrap(),
        text.len()
    );
    assert!(line.contains(&sizes), "{line}");
}

/// Lists at most 20 items.
#[tool]
async fn list(
    #[param(min = 1, max = 20)] limit: u32,
    #[param(items(max = 20), default = Vec::new())] ids: Vec<u32>,
    #[param(default = Filter { top: 1 })] filter: Filter,
) -> String {
    format!("{limit} {ids:?} {}", filter.top)
}

/// What to keep.
#[derive(tool_core::ToolParams)]
struct Filter {
    #[param(max = 20)]
    top: u32,
}

fn lists() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(ListTool).unwrap();
    tools
}

#[tokio::test]
async fn a_repaired_value_that_breaks_a_bound_is_refused_naming_the_bound() {
    let tools = lists();
    let call = ToolCall::new("c1", "list", json!({"limit": "50"}));

    // Strict, the type is what is wrong.
    let strict = run_call(&call, &tools, RunOptions::new()).await;
    assert_eq!(
        text_of(&strict),
        "Tool list failed: limit: expected integer, got string \"50\""
    );

    // Repaired, 50 is read and breaks the bound: the model is told the
    // bound with what it sent, and the call still fails, nothing recorded.
    let result = run_call(&call, &tools, repairing()).await;
    assert!(result.is_error);
    assert_eq!(
        text_of(&result),
        "Tool list failed: limit: expected integer <= 20, got string \"50\""
    );
    assert!(
        result.repairs.is_empty(),
        "a repair not used is not recorded"
    );
    assert_eq!(result.content.len(), 1, "no note of repairs");

    let low = ToolCall::new("c2", "list", json!({"limit": "0"}));
    assert_eq!(
        text_of(&run_call(&low, &tools, repairing()).await),
        "Tool list failed: limit: expected integer >= 1, got string \"0\""
    );

    // Within the bound, the repair is made and recorded as before.
    let fine = ToolCall::new("c3", "list", json!({"limit": "20"}));
    let result = run_call(&fine, &tools, repairing()).await;
    assert!(!result.is_error, "{result:?}");
    assert_eq!(text_of(&result), "20 [] 1");
    assert_eq!(
        result.repairs,
        [Repair::new(
            "limit",
            &json!("20"),
            &json!(20),
            RepairRule::StringToScalar
        )]
    );
}

#[tokio::test]
async fn problems_inside_a_repaired_value_are_told_after_its_own() {
    let tools = lists();
    // One value sent for the list, then read as a number: over the items'
    // bound. And an object sent as JSON text, whose field is over its bound.
    let call = ToolCall::new(
        "c1",
        "list",
        json!({"limit": 2, "ids": "50", "filter": "{\"top\": 30}"}),
    );
    let result = run_call(&call, &tools, repairing()).await;
    assert!(result.is_error);
    assert_eq!(
        text_of(&result),
        "Tool list failed: ids: expected array, got string \"50\"\n\
         ids[0]: expected integer <= 20, got string \"50\"\n\
         filter: expected object, got string \"{\\\"top\\\": 30}\"\n\
         filter.top: expected integer <= 20, got 30"
    );
    assert!(result.repairs.is_empty());

    // Without repair, only what the strict parse sees.
    let strict = run_call(&call, &tools, RunOptions::new()).await;
    assert_eq!(
        text_of(&strict),
        "Tool list failed: ids: expected array, got string \"50\"\n\
         filter: expected object, got string \"{\\\"top\\\": 30}\""
    );
}

#[tokio::test]
async fn a_dynamic_tool_names_the_bound_a_repaired_value_breaks_as_a_derived_tool_does() {
    let tools = lists();
    let (dynamic, seen) = recording(tools.definitions()[0].parameters.clone());
    let call = ToolCall::new("c1", "list", json!({"limit": "50"}));
    let theirs = run_call(&call, &tools, repairing()).await;
    let call = ToolCall::new("c1", "take", json!({"limit": "50"}));
    let ours = run_call(&call, &dynamic, repairing()).await;
    assert_eq!(
        text_of(&ours),
        text_of(&theirs).replace("Tool list", "Tool take")
    );
    assert!(ours.repairs.is_empty());
    assert!(seen.lock().unwrap().is_empty());
}
