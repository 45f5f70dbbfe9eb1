//! Structured results: a `#[tool]` function or a `#[tools]` method returning
//! `Json<T>` gives `T` as details and as text, advertises `T`'s schema as
//! the definition's output schema, and what it sends validates against
//! that schema (a real validator, the `jsonschema` crate) and parses back
//! to the value it came from. A hand-written tool's `output_schema` shows
//! up the same way, and MCP's `tools/list` carries it with the annotations.
//! A `Json<T>` with a text of its own gives the model that text instead.

use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::sync::Mutex;
use tests::wire::diagnostics;
use tool_core::providers::mcp;
use tool_core::{
    Content, Json, RunOptions, Tool, ToolCall, ToolContext, ToolDefinition, ToolError, ToolOutput,
    ToolParams, ToolRegistry, ToolResultMessage, execute_tool_call, params::ParamValue, tool,
    tools,
};

/// Who owns a file.
#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(rename_all = "camelCase")]
struct Owner {
    user_name: String,
    user_id: u32,
}

/// What kind of file it is.
#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
enum Kind {
    /// A regular file
    RegularFile { line_count: u32 },
    /// A directory
    Directory { children: Vec<String> },
    /// A symbolic link
    Symlink,
}

/// How urgent.
#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(rename_all = "SCREAMING_SNAKE_CASE")]
enum Level {
    Low,
    VeryHigh,
}

/// One line of a report.
#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(rename_all = "camelCase")]
struct Entry {
    line_number: u64,
    note: Option<String>,
}

/// A report on one file.
#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(rename_all = "camelCase")]
struct Report {
    /// The file's name
    file_name: String,
    size_bytes: u64,
    #[param(min = 1, max = 10)]
    priority: u8,
    ratio: f64,
    owner: Option<Owner>,
    tags: Vec<String>,
    entries: Vec<Entry>,
    kind: Kind,
    level: Option<Level>,
}

fn sample() -> Report {
    Report {
        file_name: "notes.md".into(),
        size_bytes: 1234,
        priority: 3,
        ratio: 0.25,
        owner: Some(Owner {
            user_name: "ada".into(),
            user_id: 1000,
        }),
        tags: vec!["draft".into(), "ünïcödé \"quoted\"".into()],
        entries: vec![
            Entry {
                line_number: 1,
                note: Some("first".into()),
            },
            Entry {
                line_number: 7,
                note: None,
            },
        ],
        kind: Kind::RegularFile { line_count: 42 },
        level: Some(Level::VeryHigh),
    }
}

/// Return the report it is given, as a structured result
#[tool(read_only)]
async fn echo_report(report: Report) -> Json<Report> {
    Json(report)
}

/// Return the report, or fail when told to
#[tool]
async fn maybe_report(report: Report, fail: bool) -> Result<Json<Report>, String> {
    if fail {
        Err("no report today".into())
    } else {
        Ok(Json(report))
    }
}

/// Reports kept by the program; the methods return them.
#[derive(Default)]
struct Archive {
    current: Mutex<Option<Report>>,
}

#[tools]
impl Archive {
    /// The report kept now
    #[tool(read_only, title = "Current report")]
    async fn current(&self) -> Result<Json<Report>, ToolError> {
        let report = self.current.lock().unwrap().clone();
        Ok(Json(report.ok_or("no report kept")?))
    }

    /// The kind of the report kept now
    #[tool]
    async fn kind(&self) -> Json<Kind> {
        Json(
            self.current
                .lock()
                .unwrap()
                .as_ref()
                .map_or(Kind::Symlink, |report| report.kind.clone()),
        )
    }

    /// Plain text, no structure
    #[tool]
    async fn summary(&self) -> String {
        "a summary".into()
    }
}

/// A hand-written tool whose details are a type deriving `ToolParams`.
struct HandReport;

#[derive(ToolParams)]
struct HandParams {
    name: String,
}

impl Tool for HandReport {
    type Params = HandParams;
    type Details = Json<Owner>;

    fn name(&self) -> &str {
        "hand_report"
    }

    fn description(&self) -> &str {
        "Says who owns a file"
    }

    async fn execute(
        &self,
        params: HandParams,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<Json<Owner>>, ToolError> {
        Ok(
            ToolOutput::text(format!("owned by {}", params.name)).with_details(Json(Owner {
                user_name: params.name,
                user_id: 7,
            })),
        )
    }

    fn output_schema(&self) -> Option<Value> {
        Some(Owner::json_schema())
    }
}

/// A hand-written tool whose structured result is not an object: a level,
/// as its name.
struct HandLevel;

impl Tool for HandLevel {
    type Params = HandParams;
    type Details = String;

    fn name(&self) -> &str {
        "level"
    }

    fn description(&self) -> &str {
        "Says how urgent a file is"
    }

    async fn execute(
        &self,
        params: HandParams,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<String>, ToolError> {
        let level = if params.name.ends_with('!') {
            Level::VeryHigh
        } else {
            Level::Low
        };
        let name = level.to_json().as_str().unwrap().to_owned();
        Ok(ToolOutput::text(name.clone()).with_details(name))
    }

    fn output_schema(&self) -> Option<Value> {
        Some(<Level as ParamValue>::schema())
    }
}

fn registry(archive: std::sync::Arc<Archive>) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(EchoReportTool).unwrap();
    tools.register(MaybeReportTool).unwrap();
    tools.register_all(archive).unwrap();
    tools.register(HandReport).unwrap();
    tools.register(HandLevel).unwrap();
    tools
}

async fn run(tools: &ToolRegistry, id: &str, name: &str, arguments: Value) -> ToolResultMessage {
    let call = ToolCall::new(id, name, arguments);
    let result = execute_tool_call(&call, tools, RunOptions::default()).await;
    assert_eq!(result.tool_call_id, id);
    result
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::new(schema).expect("the output schema compiles")
}

/// Checks one structured result against its tool's definition: details are
/// `expected.to_json()`, the text is the same JSON, both validate against
/// the advertised schema, and they parse back to `expected`.
#[track_caller]
fn check_structured<T: ToolParams + ParamValue + PartialEq + std::fmt::Debug>(
    result: &ToolResultMessage,
    definition: &ToolDefinition,
    expected: &T,
) {
    assert!(!result.is_error, "{result:?}");
    let schema = definition
        .output_schema
        .as_ref()
        .expect("the definition advertises an output schema");
    assert_eq!(*schema, T::json_schema());
    let details = result.details.as_ref().expect("structured details");
    assert_eq!(*details, expected.to_json());
    assert_eq!(result.content.len(), 1);
    let shown = result.content[0].as_text().expect("one text item");
    assert_eq!(shown, details.to_string());
    let shown: Value = serde_json::from_str(shown).unwrap();
    assert_eq!(shown, *details);

    let validator = validator(schema);
    if let Err(error) = validator.validate(details) {
        panic!("details do not match the output schema: {error}\n{details}\n{schema}");
    }
    assert_eq!(&T::parse(details).expect("details parse back"), expected);
}

#[tokio::test]
async fn a_function_returning_json_gives_details_text_and_output_schema() {
    let tools = registry(Default::default());
    let report = sample();
    let result = run(
        &tools,
        "fn-1",
        "echo_report",
        json!({"report": report.to_json()}),
    )
    .await;
    let definition = tools.get("echo_report").unwrap().definition();
    check_structured(&result, definition, &report);
    // The field names are the renamed ones, the enum is tagged, None left out.
    assert_eq!(
        result.details.as_ref().unwrap()["kind"],
        json!({"type": "regular_file", "lineCount": 42})
    );
    assert_eq!(result.details.as_ref().unwrap()["level"], "VERY_HIGH");
    assert_eq!(
        result.details.as_ref().unwrap()["entries"][1],
        json!({"lineNumber": 7})
    );
    assert_eq!(EchoReportTool.output_schema(), Some(Report::json_schema()));
}

#[tokio::test]
async fn a_function_returning_result_of_json_gives_the_same_or_a_paired_error() {
    let tools = registry(Default::default());
    let report = sample();
    let definition = tools.get("maybe_report").unwrap().definition();
    assert_eq!(definition.output_schema, Some(Report::json_schema()));
    let ok = run(
        &tools,
        "ok",
        "maybe_report",
        json!({"report": report.to_json(), "fail": false}),
    )
    .await;
    check_structured(&ok, definition, &report);
    let failed = run(
        &tools,
        "no",
        "maybe_report",
        json!({"report": report.to_json(), "fail": true}),
    )
    .await;
    assert!(failed.is_error);
    assert_eq!(
        failed.content[0].as_text(),
        Some("Tool maybe_report failed: no report today")
    );
    assert_eq!(failed.details, Some(json!({"error": "no report today"})));
}

#[tokio::test]
async fn a_method_returning_json_gives_details_text_and_output_schema() {
    let archive = std::sync::Arc::new(Archive::default());
    let tools = registry(archive.clone());
    let definition = tools.get("current").unwrap().definition();
    assert_eq!(definition.output_schema, Some(Report::json_schema()));

    let empty = run(&tools, "m0", "current", json!({})).await;
    assert!(empty.is_error);
    assert_eq!(
        empty.content[0].as_text(),
        Some("Tool current failed: no report kept")
    );

    let report = sample();
    *archive.current.lock().unwrap() = Some(report.clone());
    let kept = run(&tools, "m1", "current", json!({})).await;
    check_structured(&kept, definition, &report);

    // An enum as the whole result.
    let kind = run(&tools, "m2", "kind", json!({})).await;
    check_structured(
        &kind,
        tools.get("kind").unwrap().definition(),
        &Kind::RegularFile { line_count: 42 },
    );
    assert_eq!(
        kind.details,
        Some(json!({"type": "regular_file", "lineCount": 42}))
    );
}

#[test]
fn the_neutral_definition_carries_output_schema_only_for_structured_tools() {
    let tools = registry(Default::default());
    let neutral = serde_json::to_value(tools.definitions()).unwrap();
    let by_name = |name: &str| {
        neutral
            .as_array()
            .unwrap()
            .iter()
            .find(|definition| definition["name"] == name)
            .unwrap()
            .clone()
    };
    for (name, schema) in [
        ("echo_report", Report::json_schema()),
        ("maybe_report", Report::json_schema()),
        ("current", Report::json_schema()),
        ("kind", Kind::json_schema()),
        ("level", <Level as ParamValue>::schema()),
        ("hand_report", Owner::json_schema()),
    ] {
        assert_eq!(by_name(name)["outputSchema"], schema, "{name}");
    }
    let summary = by_name("summary");
    assert_eq!(summary.get("outputSchema"), None);
    assert_eq!(
        serde_json::to_string(&summary).unwrap(),
        r#"{"name":"summary","description":"Plain text, no structure","parameters":{"type":"object","properties":{},"additionalProperties":false}}"#
    );
    // Keys in a fixed order: outputSchema after parameters, annotations last.
    let current = by_name("current");
    let keys: Vec<&str> = current
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "name",
            "description",
            "parameters",
            "outputSchema",
            "annotations"
        ]
    );
    assert_eq!(
        current["annotations"],
        json!({"title": "Current report", "readOnlyHint": true})
    );
    // A definition reads back with its output schema.
    let back: ToolDefinition = serde_json::from_value(current).unwrap();
    assert_eq!(&back, tools.get("current").unwrap().definition());
}

#[tokio::test]
async fn a_hand_written_output_schema_shows_up_in_the_definition() {
    let tools = registry(Default::default());
    let definition = tools.get("hand_report").unwrap().definition();
    assert_eq!(definition.output_schema, Some(Owner::json_schema()));
    assert!(definition.annotations.is_empty());
    let result = run(&tools, "h", "hand_report", json!({"name": "bo"})).await;
    assert_eq!(result.content[0].as_text(), Some("owned by bo"));
    assert_eq!(result.details, Some(json!({"userName": "bo", "userId": 7})));
    let schema = definition.output_schema.as_ref().unwrap();
    assert!(validator(schema).is_valid(result.details.as_ref().unwrap()));
    // The default is none.
    assert_eq!(
        tools.get("summary").unwrap().definition().output_schema,
        None
    );
}

#[test]
fn the_output_schema_rejects_what_the_type_would_not_produce() {
    // The validator used above is not vacuous: the schema refuses a wrong
    // tag, a missing required field, and a priority out of its bounds.
    let validator = validator(&Report::json_schema());
    let good = sample().to_json();
    assert!(validator.is_valid(&good));
    let mut wrong_tag = good.clone();
    wrong_tag["kind"]["type"] = json!("socket");
    assert!(!validator.is_valid(&wrong_tag));
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("fileName");
    assert!(!validator.is_valid(&missing));
    let mut out_of_bounds = good;
    out_of_bounds["priority"] = json!(11);
    assert!(!validator.is_valid(&out_of_bounds));
}

#[test]
fn mcp_tools_carry_output_schema_and_annotations() {
    let tools = registry(Default::default());
    let converted = mcp::tools(&tools.definitions());
    let listed = converted.value.as_array().unwrap();
    let by_name = |name: &str| {
        listed
            .iter()
            .find(|tool| tool["name"] == name)
            .unwrap()
            .clone()
    };
    let current = by_name("current");
    assert_eq!(
        current["inputSchema"],
        tools.get("current").unwrap().parameters().clone()
    );
    assert_eq!(current["outputSchema"], Report::json_schema());
    assert_eq!(
        current["annotations"],
        json!({"title": "Current report", "readOnlyHint": true})
    );
    let echo = by_name("echo_report");
    assert_eq!(echo["outputSchema"], Report::json_schema());
    assert_eq!(echo["annotations"], json!({"readOnlyHint": true}));
    let hand = by_name("hand_report");
    assert_eq!(hand["outputSchema"], Owner::json_schema());
    assert_eq!(hand.get("annotations"), None);
    let summary = by_name("summary");
    assert_eq!(summary.get("outputSchema"), None);
    assert_eq!(summary.get("annotations"), None);
    // An enum's schema has "type": "object" at its root: sent as it is.
    assert_eq!(by_name("kind")["outputSchema"], Kind::json_schema());
    assert_eq!(Kind::json_schema()["type"], "object");
    // A string's is wrapped as the object structuredContent will be.
    assert_eq!(
        by_name("level")["outputSchema"],
        json!({
            "type": "object",
            "properties": {"value": <Level as ParamValue>::schema()},
            "required": ["value"],
        })
    );
    assert_eq!(
        diagnostics(&converted),
        [(
            "level",
            "",
            "MCP wants an outputSchema of type \"object\"; sent as {\"type\":\"object\",\"properties\":{\"value\":<schema>},\"required\":[\"value\"]}, the shape of the structuredContent such details become",
        )]
    );

    // MCP's structuredContent of each call validates against the
    // outputSchema MCP lists for its tool.
    let archive = std::sync::Arc::new(Archive::default());
    let tools = registry(archive.clone());
    let report = sample();
    *archive.current.lock().unwrap() = Some(report.clone());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let listed = mcp::tools(&tools.definitions()).value;
    for (name, arguments, structured) in [
        (
            "echo_report",
            json!({"report": report.to_json()}),
            report.to_json(),
        ),
        ("current", json!({}), report.to_json()),
        ("kind", json!({}), report.kind.to_json()),
        (
            "level",
            json!({"name": "now!"}),
            json!({"value": "VERY_HIGH"}),
        ),
        (
            "hand_report",
            json!({"name": "cy"}),
            json!({"userName": "cy", "userId": 7}),
        ),
    ] {
        let result = rt.block_on(run(&tools, "mcp", name, arguments));
        let wire = mcp::write_result(&result);
        assert_eq!(wire["structuredContent"], structured, "{name}");
        let schema = &listed
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == name)
            .unwrap()["outputSchema"];
        if let Err(error) = validator(schema).validate(&wire["structuredContent"]) {
            panic!("{name}: structuredContent does not match outputSchema: {error}");
        }
    }
}

/// Summarise the report, keeping it as structured data
#[tool(read_only)]
async fn summarize_report(report: Report) -> Json<Report> {
    let text = format!(
        "{}: {} bytes, {} entries",
        report.file_name,
        report.size_bytes,
        report.entries.len()
    );
    Json::new(report).with_text(text)
}

/// A model text of its own beside the structured data (the Vercel AI SDK's
/// `toModelOutput`): the model reads the text, the program and an MCP
/// client get the JSON, checked against the same output schema as a plain
/// `Json<T>`'s, which does not change.
#[tokio::test]
async fn a_json_result_with_its_own_text_gives_the_model_that_text_and_keeps_the_data() {
    let mut tools = registry(Default::default());
    tools.register(SummarizeReportTool).unwrap();
    let report = sample();
    let result = run(
        &tools,
        "sum-1",
        "summarize_report",
        json!({"report": report.to_json()}),
    )
    .await;
    assert!(!result.is_error, "{result:?}");
    assert_eq!(
        result.content,
        [Content::text("notes.md: 1234 bytes, 2 entries")]
    );
    assert_eq!(result.details, Some(report.to_json()));
    let definition = tools.get("summarize_report").unwrap().definition();
    assert_eq!(
        definition.output_schema,
        tools.get("echo_report").unwrap().definition().output_schema,
        "the same schema as a plain Json<Report>"
    );
    validator(definition.output_schema.as_ref().unwrap())
        .validate(result.details.as_ref().unwrap())
        .expect("the details match the output schema");

    // Over MCP: the text is the content, the JSON the structured content.
    let wire = mcp::write_result(&result);
    assert_eq!(
        wire["content"],
        json!([{"type": "text", "text": "notes.md: 1234 bytes, 2 entries"}])
    );
    assert_eq!(wire["structuredContent"], report.to_json());

    // The text and the value, as the tool built them.
    let built = Json::new(sample()).with_text("short");
    assert_eq!(built.text(), Some("short"));
    assert_eq!(built.value(), &sample());
    assert_eq!(Json(sample()).text(), None);
    assert_eq!(Json(sample()), Json::new(sample()));
    assert_eq!(
        serde_json::to_value(&built).unwrap(),
        report.to_json(),
        "the text is not part of the data"
    );
}

/// A text of its own does not let a value that breaks the schema through.
#[tokio::test]
async fn a_json_result_with_a_text_is_still_checked_against_its_schema() {
    /// Reports a priority outside its range
    #[tool]
    async fn bad_priority(report: Report) -> Json<Report> {
        Json::new(Report {
            priority: 11,
            ..report
        })
        .with_text("all fine")
    }
    let mut tools = ToolRegistry::new();
    tools.register(BadPriorityTool).unwrap();
    let result = run(
        &tools,
        "bad-1",
        "bad_priority",
        json!({"report": sample().to_json()}),
    )
    .await;
    assert!(result.is_error);
    let said = result.content[0].as_text().unwrap();
    assert!(
        said.contains("its structured result does not match its output schema: priority"),
        "{said}"
    );
    assert!(!said.contains("all fine"), "{said}");
}

// ---------------------------------------------------------------------------
// Property: whatever a tool returns validates and parses back
// ---------------------------------------------------------------------------

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,8}",
        any::<String>(),
        Just("\"quoted\" \\ back\nslash".to_owned()),
    ]
}

fn owner() -> impl Strategy<Value = Owner> {
    (text(), any::<u32>()).prop_map(|(user_name, user_id)| Owner { user_name, user_id })
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        any::<u32>().prop_map(|line_count| Kind::RegularFile { line_count }),
        vec(text(), 0..4).prop_map(|children| Kind::Directory { children }),
        Just(Kind::Symlink),
    ]
}

fn entry() -> impl Strategy<Value = Entry> {
    (any::<u64>(), proptest::option::of(text()))
        .prop_map(|(line_number, note)| Entry { line_number, note })
}

fn ratio() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |f| f.is_finite()),
        Just(0.0),
        Just(-0.0),
        Just(f64::MAX),
        Just(f64::MIN_POSITIVE),
        Just(0.1),
    ]
}

fn report() -> impl Strategy<Value = Report> {
    (
        (text(), any::<u64>(), 1u8..=10, ratio()),
        (
            proptest::option::of(owner()),
            vec(text(), 0..4),
            vec(entry(), 0..4),
            kind(),
            proptest::option::of(prop_oneof![Just(Level::Low), Just(Level::VeryHigh)]),
        ),
    )
        .prop_map(
            |((file_name, size_bytes, priority, ratio), (owner, tags, entries, kind, level))| {
                Report {
                    file_name,
                    size_bytes,
                    priority,
                    ratio,
                    owner,
                    tags,
                    entries,
                    kind,
                    level,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Through the tools' actual results: the function (the value goes in
    /// as arguments and comes back out) and the method (the value is kept
    /// in the box's state and returned as it is).
    #[test]
    fn structured_results_validate_and_parse_back(report in report()) {
        let archive = std::sync::Arc::new(Archive::default());
        let tools = registry(archive.clone());
        *archive.current.lock().unwrap() = Some(report.clone());
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (through_fn, through_method) = rt.block_on(async {
            let through_fn = run(&tools, "p1", "echo_report", json!({"report": report.to_json()})).await;
            let through_method = run(&tools, "p2", "current", json!({})).await;
            (through_fn, through_method)
        });
        check_structured(&through_fn, tools.get("echo_report").unwrap().definition(), &report);
        check_structured(&through_method, tools.get("current").unwrap().definition(), &report);
    }
}

/// What the tool sends must match what it advertises: a value that breaks
/// its own schema (a NaN, written as null; a number under its `min`) is the
/// call's paired error, not a structured result that fails validation.
mod broken_outputs {
    use serde_json::json;
    use tool_core::{
        Json, RunOptions, ToolCall, ToolParams, ToolRegistry, execute_tool_call, tool,
    };

    /// A measurement.
    #[derive(ToolParams)]
    pub(crate) struct Measure {
        ratio: f64,
        #[param(min = 1, max = 10)]
        priority: u8,
    }

    /// Measure something
    #[tool]
    async fn measure(ratio: f64, priority: u8) -> Json<Measure> {
        Json(Measure {
            ratio: if ratio < 0.0 { f64::NAN } else { ratio },
            priority,
        })
    }

    async fn run(arguments: serde_json::Value) -> tool_core::ToolResultMessage {
        let mut tools = ToolRegistry::new();
        tools.register(MeasureTool).unwrap();
        let call = ToolCall::new("call-1", "measure", arguments);
        execute_tool_call(&call, &tools, RunOptions::default()).await
    }

    #[tokio::test]
    async fn a_result_that_breaks_its_schema_is_a_paired_error() {
        let nan = run(json!({"ratio": -1.0, "priority": 3})).await;
        assert!(nan.is_error);
        assert_eq!(
            nan.content[0].as_text(),
            Some(
                "Tool measure failed: its structured result does not match its output schema: ratio: expected number, got null"
            )
        );
        let low = run(json!({"ratio": 0.5, "priority": 0})).await;
        assert!(low.is_error);
        assert!(
            low.content[0].as_text().unwrap().contains("priority: "),
            "{:?}",
            low.content
        );
        let fine = run(json!({"ratio": 0.5, "priority": 3})).await;
        assert!(!fine.is_error);
        assert_eq!(fine.details, Some(json!({"ratio": 0.5, "priority": 3})));
    }
}
