//! `#[tools]` on impl blocks: `register_all` with the value or an `Arc`
//! (one shared state, never cloned per call), all or nothing on a taken
//! name, declaration order, every `#[tool]` feature on methods, parameter
//! descriptions from doc comments and `# Arguments`, annotations on the
//! definition and in the before hook, and calls of one box running at the
//! same time.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tool_core::{
    Content, ExecutionMode, Json, RunOptions, Tool, ToolAnnotations, ToolCall, ToolContext,
    ToolOutput, ToolParams, ToolRegistry, ToolResultMessage, execute_tool_call, execute_tool_calls,
    executor::HookDecision, registry::RegistryError, tool, tools,
};

fn text_of(result: &ToolResultMessage) -> &str {
    assert_eq!(result.content.len(), 1, "{result:?}");
    result.content[0].as_text().expect("a text item")
}

async fn run(tools: &ToolRegistry, id: &str, name: &str, arguments: Value) -> ToolResultMessage {
    let call = ToolCall::new(id, name, arguments);
    execute_tool_call(&call, tools, RunOptions::default()).await
}

/// Runs one call as a batch of one, so that "exactly one result" is checked
/// by what the batch answers, not by the shape of a single-call API.
async fn run_batch_of_one(
    tools: &ToolRegistry,
    id: &str,
    name: &str,
    arguments: Value,
) -> ToolResultMessage {
    let calls = [ToolCall::new(id, name, arguments)];
    let mut results = execute_tool_calls(
        &calls,
        tools,
        RunOptions::default(),
        ExecutionMode::Parallel,
    )
    .await;
    assert_eq!(results.len(), 1, "one call, one result: {results:?}");
    let result = results.pop().unwrap();
    assert_eq!(result.tool_call_id, id);
    assert_eq!(result.tool_name, name);
    result
}

// ---------------------------------------------------------------------------
// Shared state: the value and an Arc
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Counter {
    count: AtomicU64,
    /// Lets a `hold` call wait while the test looks at the Arc.
    entered: tokio::sync::Notify,
    release: tokio::sync::Notify,
}

#[tools]
impl Counter {
    /// Add to the counter and say its new value
    #[tool]
    async fn add(&self, by: u64) -> String {
        (self.count.fetch_add(by, Ordering::SeqCst) + by).to_string()
    }

    /// Read the counter
    #[tool(read_only)]
    async fn get(&self) -> String {
        self.count.load(Ordering::SeqCst).to_string()
    }

    /// Wait until the test releases the call
    #[tool]
    async fn hold(&self) -> String {
        self.entered.notify_one();
        self.release.notified().await;
        "released".into()
    }

    /// Not a tool.
    fn reset(&self) {
        self.count.store(0, Ordering::SeqCst);
    }
}

const COUNTER_TOOLS: usize = 3;

#[tokio::test]
async fn register_all_takes_the_value() {
    let mut tools = ToolRegistry::new();
    tools.register_all(Counter::default()).unwrap();
    assert_eq!(tools.len(), COUNTER_TOOLS);
    assert_eq!(
        text_of(&run(&tools, "a", "add", json!({"by": 2})).await),
        "2"
    );
    assert_eq!(
        text_of(&run(&tools, "b", "add", json!({"by": 5})).await),
        "7"
    );
    // Both tools read the one state.
    assert_eq!(text_of(&run(&tools, "c", "get", json!({})).await), "7");
}

#[tokio::test]
async fn register_all_takes_an_arc_and_the_callers_arc_sees_the_same_state() {
    let counter = Arc::new(Counter::default());
    let mut tools = ToolRegistry::new();
    tools.register_all(Arc::clone(&counter)).unwrap();
    assert_eq!(Arc::strong_count(&counter), 1 + COUNTER_TOOLS);

    let mut expected = 0;
    for i in 0..100u64 {
        let result = run(&tools, &format!("add-{i}"), "add", json!({"by": i})).await;
        expected += i;
        assert_eq!(text_of(&result), expected.to_string());
        assert_eq!(Arc::strong_count(&counter), 1 + COUNTER_TOOLS);
    }
    // What the tools did is visible through the caller's Arc...
    assert_eq!(counter.count.load(Ordering::SeqCst), expected);
    // ...and what the caller does is visible to the tools.
    counter.reset();
    assert_eq!(text_of(&run(&tools, "g", "get", json!({})).await), "0");
    counter.count.store(41, Ordering::SeqCst);
    assert_eq!(
        text_of(&run(&tools, "a", "add", json!({"by": 1})).await),
        "42"
    );

    // A registry clone shares the tools; it clones no state either.
    let copy = tools.clone();
    assert_eq!(Arc::strong_count(&counter), 1 + COUNTER_TOOLS);
    assert_eq!(text_of(&run(&copy, "g", "get", json!({})).await), "42");
    drop(copy);
    drop(tools);
    assert_eq!(Arc::strong_count(&counter), 1);
}

#[tokio::test]
async fn a_running_call_holds_no_clone_of_the_state() {
    let counter = Arc::new(Counter::default());
    let mut tools = ToolRegistry::new();
    tools.register_all(Arc::clone(&counter)).unwrap();
    let call = ToolCall::new("h", "hold", json!({}));
    let running = execute_tool_call(&call, &tools, RunOptions::default());
    let watch = async {
        counter.entered.notified().await;
        // The call is inside the method now.
        let during = Arc::strong_count(&counter);
        counter.release.notify_one();
        during
    };
    let (result, during) = tokio::time::timeout(Duration::from_secs(10), async {
        tokio::join!(running, watch)
    })
    .await
    .expect("the call finishes once released");
    assert_eq!(text_of(&result), "released");
    assert_eq!(during, 1 + COUNTER_TOOLS);
    assert_eq!(Arc::strong_count(&counter), 1 + COUNTER_TOOLS);
}

// ---------------------------------------------------------------------------
// All or nothing
// ---------------------------------------------------------------------------

/// Say hello
#[tool]
async fn hello() -> String {
    "hello from the function".into()
}

struct Greeter;

#[tools]
impl Greeter {
    /// Wave
    #[tool]
    async fn wave(&self) -> String {
        "wave".into()
    }

    /// Say hello, from the box
    #[tool]
    async fn hello(&self) -> String {
        "hello from the box".into()
    }

    /// Bow
    #[tool]
    async fn bow(&self) -> String {
        "bow".into()
    }
}

#[tokio::test]
async fn a_taken_name_refuses_the_whole_box() {
    let mut tools = ToolRegistry::new();
    tools.register(HelloTool).unwrap();
    let greeter = Arc::new(Greeter);
    let error = tools.register_all(Arc::clone(&greeter)).unwrap_err();
    assert_eq!(
        error,
        RegistryError::NameTaken {
            name: "hello".into(),
            registered: "tool hello".into(),
            incoming: "toolbox Greeter".into(),
        }
    );
    assert_eq!(
        error.to_string(),
        "Tool already exists: hello (registered from tool hello; the new one is from toolbox \
         Greeter); give one side a prefix (Toolset::prefixed) or rename it (Toolset::renamed)"
    );
    // Nothing of the box was added, not even `wave`, declared before `hello`.
    assert_eq!(tools.len(), 1);
    assert!(tools.get("wave").is_none());
    assert!(tools.get("bow").is_none());
    // The refused box's tools were dropped with their Arcs.
    assert_eq!(Arc::strong_count(&greeter), 1);
    // The function registered first still answers.
    assert_eq!(
        text_of(&run(&tools, "h", "hello", json!({})).await),
        "hello from the function"
    );

    // The same box goes in whole where its names are free.
    let mut fresh = ToolRegistry::new();
    fresh.register_all(greeter).unwrap();
    assert_eq!(fresh.len(), 3);
    assert_eq!(
        text_of(&run(&fresh, "h", "hello", json!({})).await),
        "hello from the box"
    );
}

#[test]
fn a_box_registered_twice_is_refused_the_second_time() {
    let mut tools = ToolRegistry::new();
    tools.register_all(Greeter).unwrap();
    let error = tools.register_all(Greeter).unwrap_err();
    assert!(
        matches!(&error, RegistryError::NameTaken { name, registered, incoming }
            if name == "wave" && registered == "toolbox Greeter" && incoming == registered),
        "{error:?}"
    );
    assert_eq!(tools.len(), 3);
}

// ---------------------------------------------------------------------------
// Order and plain methods
// ---------------------------------------------------------------------------

struct Ordered {
    label: String,
}

#[tools]
impl Ordered {
    /// Last in the alphabet, first declared
    #[tool]
    async fn zulu(&self) -> String {
        self.shout("zulu")
    }

    /// Not a tool, between two tools.
    fn shout(&self, word: &str) -> String {
        format!("{}:{}", self.label, word.to_uppercase())
    }

    /// First in the alphabet
    #[tool]
    async fn alpha(&self, ctx: &ToolContext) -> String {
        format!("{}@{}", self.shout("alpha"), ctx.call_id)
    }

    /// An associated function, not a tool.
    fn new(label: &str) -> Self {
        Ordered {
            label: label.into(),
        }
    }

    /// In the middle
    #[tool]
    async fn mike(&self, times: usize) -> Result<String, String> {
        Ok("m".repeat(times))
    }
}

#[tokio::test]
async fn a_box_declares_its_tools_in_order_and_methods_stay_callable() {
    // The box gives its tools as declared; a registry sorts them by name.
    let declared: Vec<String> = tool_core::Toolbox::tools(Arc::new(Ordered::new("o")))
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect();
    assert_eq!(declared, ["zulu", "alpha", "mike"]);
    let mut tools = ToolRegistry::new();
    tools.register_all(Ordered::new("o")).unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name()).collect();
    assert_eq!(names, ["alpha", "mike", "zulu"]);
    let definitions: Vec<String> = tools.definitions().into_iter().map(|d| d.name).collect();
    assert_eq!(definitions, ["alpha", "mike", "zulu"]);

    // The plain method and the associated function are plain.
    let ordered = Ordered::new("x");
    assert_eq!(ordered.shout("hi"), "x:HI");
    // Tool methods are callable as written, context parameter included.
    assert_eq!(ordered.zulu().await, "x:ZULU");
    assert_eq!(
        ordered.alpha(&ToolContext::new("direct")).await,
        "x:ALPHA@direct"
    );
    assert_eq!(ordered.mike(3).await, Ok("mmm".to_string()));
    // And through the registry, on the registered value's state.
    assert_eq!(
        text_of(&run(&tools, "c-9", "alpha", json!({})).await),
        "o:ALPHA@c-9"
    );
}

// ---------------------------------------------------------------------------
// Every #[tool] feature on methods
// ---------------------------------------------------------------------------

#[derive(ToolParams, Debug, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

/// A file's name and size.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "camelCase")]
struct Stat {
    file_name: String,
    size_bytes: u64,
}

#[derive(Default)]
struct Kit {
    prefix: String,
    /// Calls of `work` and `lock` running now, and the most `lock` saw.
    in_flight: AtomicUsize,
    lock_saw: AtomicUsize,
    work_saw: AtomicUsize,
}

#[tools]
impl Kit {
    /// This doc comment loses to the attribute.
    #[tool(name = "kit_echo", description = "Echo with the kit's prefix")]
    async fn echo(&self, text: String) -> String {
        format!("{}{text}", self.prefix)
    }

    /// Sleeps for an hour, past its timeout
    #[tool(timeout_ms = 30)]
    async fn slow(&self) -> String {
        tokio::time::sleep(Duration::from_secs(3600)).await;
        "finished".into()
    }

    /// Works beside others
    #[tool]
    async fn work(&self) -> String {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.work_saw.fetch_max(now, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(20)).await;
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        "worked".into()
    }

    /// Runs alone
    #[tool(exclusive)]
    async fn lock(&self) -> String {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.lock_saw.fetch_max(now, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(20)).await;
        let after = self.in_flight.load(Ordering::SeqCst);
        self.lock_saw.fetch_max(after, Ordering::SeqCst);
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        "locked".into()
    }

    /// Repeat a text
    #[tool]
    async fn repeat(
        &self,
        #[param(rename = "text", min_length = 1)] value: String,
        #[param(min = 1, max = 3, default = 2)] times: u8,
    ) -> String {
        value.repeat(usize::from(times))
    }

    /// Say which call this is, by reference
    #[tool]
    async fn who_ref(&self, ctx: &ToolContext) -> String {
        ctx.call_id.clone()
    }

    /// Say which call this is, by value
    #[tool]
    async fn who_value(&self, suffix: String, ctx: ToolContext) -> String {
        format!("{}{suffix}", ctx.call_id)
    }

    /// Fails when told to
    #[tool]
    async fn check(&self, ok: bool) -> Result<String, std::io::Error> {
        if ok {
            Ok("fine".into())
        } else {
            Err(std::io::Error::other("check failed on purpose"))
        }
    }

    /// Fails with a string
    #[tool]
    async fn refuse(&self, reason: String) -> Result<String, String> {
        Err(reason)
    }

    /// Text and details
    #[tool]
    async fn detailed(&self, n: u32) -> ToolOutput<Value> {
        ToolOutput::text(format!("n={n}")).with_details(json!({"double": n * 2}))
    }

    /// A structured result
    #[tool]
    async fn stat(&self, name: String) -> Json<Stat> {
        Json(Stat {
            size_bytes: name.len() as u64,
            file_name: name,
        })
    }

    /// Panics
    #[tool]
    async fn explode(&self) -> String {
        panic!("the kit exploded")
    }

    /// Sums points
    #[tool]
    async fn place(&self, points: Vec<Point>) -> String {
        points.iter().map(|p| p.x + p.y).sum::<i32>().to_string()
    }
}

fn kit_registry(kit: Kit) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register_all(kit).unwrap();
    tools
}

fn kit() -> ToolRegistry {
    kit_registry(Kit {
        prefix: "> ".into(),
        ..Kit::default()
    })
}

#[tokio::test]
async fn name_and_description_overrides_apply_to_methods() {
    let tools = kit();
    assert!(tools.get("echo").is_none());
    let echo = tools.get("kit_echo").unwrap();
    assert_eq!(echo.description(), "Echo with the kit's prefix");
    // The generated type says the same (its field is private to this module).
    let generated = KitEchoTool(Arc::new(Kit::default()));
    assert_eq!(
        (generated.name(), generated.description()),
        ("kit_echo", "Echo with the kit's prefix")
    );
    assert_eq!(
        text_of(&run(&tools, "e", "kit_echo", json!({"text": "hi"})).await),
        "> hi"
    );
}

#[tokio::test(start_paused = true)]
async fn a_method_past_its_timeout_gets_the_timed_out_result() {
    let tools = kit();
    assert_eq!(
        tools.get("slow").unwrap().timeout(),
        Some(Duration::from_millis(30))
    );
    assert_eq!(tools.get("work").unwrap().timeout(), None);
    let started = tokio::time::Instant::now();
    let result = run_batch_of_one(&tools, "slow-1", "slow", json!({})).await;
    assert!(started.elapsed() >= Duration::from_millis(30));
    assert!(started.elapsed() < Duration::from_secs(3600));
    assert!(result.is_error);
    assert_eq!(text_of(&result), "Tool slow failed: timed out after 30 ms");
    assert_eq!(
        result.details,
        Some(json!({"error": "timed out after 30 ms"}))
    );
}

#[tokio::test(start_paused = true)]
async fn an_exclusive_method_runs_alone_while_the_others_overlap() {
    let kit = Arc::new(Kit::default());
    let mut tools = ToolRegistry::new();
    tools.register_all(Arc::clone(&kit)).unwrap();
    assert!(tools.get("lock").unwrap().exclusive());
    assert!(!tools.get("work").unwrap().exclusive());
    let names = ["work", "work", "lock", "work", "work"];
    let calls: Vec<ToolCall> = names
        .iter()
        .enumerate()
        .map(|(i, name)| ToolCall::new(format!("x{i}"), *name, json!({})))
        .collect();
    let results =
        execute_tool_calls(&calls, &tools, RunOptions::new(), ExecutionMode::Parallel).await;
    let texts: Vec<&str> = results.iter().map(text_of).collect();
    assert_eq!(texts, ["worked", "worked", "locked", "worked", "worked"]);
    assert_eq!(kit.lock_saw.load(Ordering::SeqCst), 1, "lock ran alone");
    assert_eq!(
        kit.work_saw.load(Ordering::SeqCst),
        2,
        "work calls overlapped"
    );
}

#[tokio::test]
async fn param_attributes_apply_to_method_parameters() {
    let tools = kit();
    let schema = tools.get("repeat").unwrap().parameters();
    assert_eq!(
        *schema,
        json!({
            "type": "object",
            "properties": {
                "text": {"type": "string", "minLength": 1},
                "times": {"type": "integer", "minimum": 1, "maximum": 3, "default": 2},
            },
            "required": ["text"],
            "additionalProperties": false,
        })
    );
    // Renamed, defaulted.
    assert_eq!(
        text_of(&run(&tools, "r", "repeat", json!({"text": "ab"})).await),
        "abab"
    );
    assert_eq!(
        text_of(&run(&tools, "r", "repeat", json!({"text": "ab", "times": 3})).await),
        "ababab"
    );
    // The Rust name is not the JSON name.
    let missing = run(&tools, "r", "repeat", json!({"value": "ab"})).await;
    assert!(missing.is_error);
    assert_eq!(
        text_of(&missing),
        "Tool repeat failed: text: missing required field"
    );
    let out_of_range = run(&tools, "r", "repeat", json!({"text": "", "times": 9})).await;
    assert_eq!(
        text_of(&out_of_range),
        "Tool repeat failed: text: expected string of at least 1 character, got 0\n\
         times: expected integer <= 3, got 9"
    );
}

#[tokio::test]
async fn the_context_parameter_gets_the_calls_id_by_ref_and_by_value() {
    let tools = kit();
    // The context is not shown to the model.
    assert_eq!(
        *tools.get("who_ref").unwrap().parameters(),
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    assert_eq!(
        tools.get("who_value").unwrap().parameters()["required"],
        json!(["suffix"])
    );
    let calls = [
        ToolCall::new("ref-1", "who_ref", json!({})),
        ToolCall::new("val-2", "who_value", json!({"suffix": "!"})),
        ToolCall::new("ref-3", "who_ref", json!({})),
    ];
    let results = execute_tool_calls(
        &calls,
        &tools,
        // A caller cannot pass another call's id in.
        RunOptions::new(),
        ExecutionMode::Parallel,
    )
    .await;
    let texts: Vec<&str> = results.iter().map(text_of).collect();
    assert_eq!(texts, ["ref-1", "val-2!", "ref-3"]);
}

#[tokio::test]
async fn each_return_type_of_a_method_becomes_a_result() {
    let tools = kit();
    // String
    let echoed = run(&tools, "s", "kit_echo", json!({"text": "x"})).await;
    assert_eq!(echoed.content, vec![Content::text("> x")]);
    assert_eq!(echoed.details, None);
    assert!(!echoed.is_error);
    // Result<String, E>
    let fine = run(&tools, "c", "check", json!({"ok": true})).await;
    assert_eq!((text_of(&fine), fine.is_error), ("fine", false));
    // ToolOutput<D>
    let detailed = run(&tools, "d", "detailed", json!({"n": 21})).await;
    assert_eq!(text_of(&detailed), "n=21");
    assert_eq!(detailed.details, Some(json!({"double": 42})));
    // Json<T>
    let stat = run(&tools, "j", "stat", json!({"name": "a.txt"})).await;
    assert_eq!(text_of(&stat), r#"{"fileName":"a.txt","sizeBytes":5}"#);
    assert_eq!(
        stat.details,
        Some(json!({"fileName": "a.txt", "sizeBytes": 5}))
    );
    let definition = tools.get("stat").unwrap().definition();
    assert_eq!(definition.output_schema, Some(Stat::json_schema()));
    assert_eq!(
        tools.get("detailed").unwrap().definition().output_schema,
        None
    );
}

#[tokio::test]
async fn a_failing_method_gives_one_paired_error() {
    let tools = kit();
    let failed = run_batch_of_one(&tools, "fail-1", "check", json!({"ok": false})).await;
    assert!(failed.is_error);
    assert_eq!(
        text_of(&failed),
        "Tool check failed: check failed on purpose"
    );
    assert_eq!(
        failed.details,
        Some(json!({"error": "check failed on purpose"}))
    );

    let refused = run_batch_of_one(&tools, "fail-2", "refuse", json!({"reason": "no"})).await;
    assert!(refused.is_error);
    assert_eq!(text_of(&refused), "Tool refuse failed: no");
}

#[tokio::test]
async fn a_panicking_method_gives_one_paired_error() {
    let tools = kit();
    let exploded = run_batch_of_one(&tools, "boom-1", "explode", json!({})).await;
    assert!(exploded.is_error);
    assert_eq!(
        text_of(&exploded),
        "Tool explode failed: panicked: the kit exploded"
    );
    // The box still works after one of its methods panicked.
    let after = run(&tools, "after", "kit_echo", json!({"text": "ok"})).await;
    assert_eq!(text_of(&after), "> ok");
}

#[tokio::test]
async fn bad_arguments_are_paired_errors_naming_the_path() {
    let tools = kit();
    let bad = run_batch_of_one(
        &tools,
        "bad-1",
        "place",
        json!({"points": [{"x": 1, "y": 2}, {"x": "three", "y": 4}, {"x": 5}]}),
    )
    .await;
    assert!(bad.is_error);
    assert_eq!(
        text_of(&bad),
        "Tool place failed: points[1].x: expected integer, got string \"three\"\n\
         points[2].y: missing required field"
    );
    let good = run(
        &tools,
        "good",
        "place",
        json!({"points": [{"x": 1, "y": 2}, {"x": 3, "y": 4}]}),
    )
    .await;
    assert_eq!(text_of(&good), "10");
}

// ---------------------------------------------------------------------------
// Descriptions
// ---------------------------------------------------------------------------

struct Docs;

#[tools]
impl Docs {
    /// Copy a file.
    ///
    /// Both paths are relative
    /// to the root.
    ///
    /// # Arguments
    ///
    /// * `from` - The source file, which must exist
    ///   and be readable
    /// * `to` - Loses to the parameter's doc comment
    /// * `mode` - Loses to the attribute
    ///
    /// # Errors
    ///
    /// Fails when the source is missing.
    #[tool]
    async fn copy(
        &self,
        from: String,
        /// Where to copy to
        to: String,
        /// Loses to the attribute too
        #[param(description = "How to copy")]
        mode: String,
        /// Only a doc comment,
        /// on two lines
        force: bool,
        undocumented: Option<bool>,
    ) -> String {
        format!("{from} -> {to} ({mode}, {force}, {undocumented:?})")
    }
}

#[test]
fn parameter_descriptions_come_from_attribute_doc_comment_then_arguments_section() {
    let mut tools = ToolRegistry::new();
    tools.register_all(Docs).unwrap();
    let copy = tools.get("copy").unwrap();
    assert_eq!(
        copy.description(),
        "Copy a file.\n\nBoth paths are relative to the root.\n\n# Errors\n\nFails when the source is missing."
    );
    assert!(!copy.description().contains("Arguments"));
    assert!(!copy.description().contains("Loses"));
    let properties = &copy.parameters()["properties"];
    assert_eq!(
        properties["from"],
        json!({"description": "The source file, which must exist and be readable", "type": "string"})
    );
    assert_eq!(properties["to"]["description"], "Where to copy to");
    assert_eq!(properties["mode"]["description"], "How to copy");
    assert_eq!(
        properties["force"]["description"],
        "Only a doc comment, on two lines"
    );
    assert_eq!(properties["undocumented"], json!({"type": "boolean"}));
}

// ---------------------------------------------------------------------------
// Annotations
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Disk {
    deleted: AtomicUsize,
}

#[tools]
impl Disk {
    /// Read a file
    #[tool(read_only, title = "Read a file")]
    async fn read(&self, path: String) -> String {
        format!("contents of {path}")
    }

    /// Delete a file
    #[tool(destructive)]
    async fn delete(&self, path: String) -> String {
        self.deleted.fetch_add(1, Ordering::SeqCst);
        format!("deleted {path}")
    }

    /// Append to a file
    #[tool(destructive = false)]
    async fn append(&self, path: String) -> String {
        format!("appended to {path}")
    }

    /// Every hint
    #[tool(
        title = "All",
        read_only = false,
        destructive,
        idempotent,
        open_world = false
    )]
    async fn all(&self) -> String {
        "all".into()
    }

    /// No hints
    #[tool]
    async fn plain(&self) -> String {
        "plain".into()
    }
}

fn disk_registry(disk: Arc<Disk>) -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register_all(disk).unwrap();
    tools
}

#[test]
fn definitions_carry_the_annotations_and_serialize_them_only_when_set() {
    let tools = disk_registry(Arc::default());
    let annotations = |name: &str| tools.get(name).unwrap().definition().annotations.clone();
    assert_eq!(
        annotations("read"),
        ToolAnnotations::new().with_title("Read a file").read_only()
    );
    assert_eq!(
        annotations("delete"),
        ToolAnnotations::new().destructive(true)
    );
    assert_eq!(
        annotations("append"),
        ToolAnnotations::new().destructive(false)
    );
    let mut all = ToolAnnotations::new()
        .with_title("All")
        .destructive(true)
        .idempotent()
        .open_world(false);
    all.read_only = Some(false);
    assert_eq!(annotations("all"), all);
    assert!(annotations("plain").is_empty());

    let string = |name: &str| serde_json::to_string(tools.get(name).unwrap().definition()).unwrap();
    let path_params = r#"{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}"#;
    assert_eq!(
        string("read"),
        format!(
            r#"{{"name":"read","description":"Read a file","parameters":{path_params},"annotations":{{"title":"Read a file","readOnlyHint":true}}}}"#
        )
    );
    assert_eq!(
        string("append"),
        format!(
            r#"{{"name":"append","description":"Append to a file","parameters":{path_params},"annotations":{{"destructiveHint":false}}}}"#
        )
    );
    assert_eq!(
        string("all"),
        r#"{"name":"all","description":"Every hint","parameters":{"type":"object","properties":{},"additionalProperties":false},"annotations":{"title":"All","readOnlyHint":false,"destructiveHint":true,"idempotentHint":true,"openWorldHint":false}}"#
    );
    // Without annotations or an output schema: the three keys, byte for byte.
    assert_eq!(
        string("plain"),
        r#"{"name":"plain","description":"No hints","parameters":{"type":"object","properties":{},"additionalProperties":false}}"#
    );
    // And the shape reads back.
    let back: tool_core::ToolDefinition = serde_json::from_str(&string("read")).unwrap();
    assert_eq!(&back, tools.get("read").unwrap().definition());
}

#[tokio::test]
async fn the_before_hook_sees_the_tools_annotations() {
    let disk = Arc::new(Disk::default());
    let tools = disk_registry(Arc::clone(&disk));
    let seen: Arc<Mutex<Vec<(String, ToolAnnotations)>>> = Arc::default();
    let log = Arc::clone(&seen);
    let ctx = RunOptions::new().with_before_hook(move |call| {
        let log = Arc::clone(&log);
        async move {
            log.lock()
                .unwrap()
                .push((call.tool_name.clone(), call.annotations.clone()));
            Ok(if call.annotations.may_destroy() {
                HookDecision::Block(format!("{} needs approval", call.tool_name))
            } else {
                HookDecision::Allow
            })
        }
    });
    let calls = [
        ToolCall::new("h0", "read", json!({"path": "a"})),
        ToolCall::new("h1", "delete", json!({"path": "a"})),
        ToolCall::new("h2", "append", json!({"path": "a"})),
        ToolCall::new("h3", "plain", json!({})),
    ];
    let results = execute_tool_calls(&calls, &tools, ctx, ExecutionMode::Sequential).await;
    let outcome: Vec<(&str, bool)> = results.iter().map(|r| (text_of(r), r.is_error)).collect();
    assert_eq!(
        outcome,
        [
            ("contents of a", false),
            ("Tool delete failed: delete needs approval", true),
            ("appended to a", false),
            // No hints read as MCP's defaults: may destroy.
            ("Tool plain failed: plain needs approval", true),
        ]
    );
    assert_eq!(disk.deleted.load(Ordering::SeqCst), 0, "delete never ran");
    let seen = seen.lock().unwrap().clone();
    let expected: Vec<(String, ToolAnnotations)> = ["read", "delete", "append", "plain"]
        .into_iter()
        .map(|name| {
            (
                name.to_owned(),
                tools.get(name).unwrap().annotations().clone(),
            )
        })
        .collect();
    assert_eq!(seen, expected);
    assert_eq!(seen[0].1.read_only, Some(true));
    assert_eq!(seen[1].1.destructive, Some(true));
}

// ---------------------------------------------------------------------------
// Concurrency: one box, &self shared, no lock
// ---------------------------------------------------------------------------

struct Meeting {
    /// Both calls must reach it before either can go on.
    barrier: tokio::sync::Barrier,
}

impl Meeting {
    fn new() -> Self {
        Meeting {
            barrier: tokio::sync::Barrier::new(2),
        }
    }
}

#[tools]
impl Meeting {
    /// Arrive from the left
    #[tool]
    async fn left(&self) -> String {
        self.barrier.wait().await;
        "left met right".into()
    }

    /// Arrive from the right
    #[tool]
    async fn right(&self) -> String {
        self.barrier.wait().await;
        "right met left".into()
    }
}

async fn meet(mode: ExecutionMode) -> Option<Vec<ToolResultMessage>> {
    let mut tools = ToolRegistry::new();
    tools.register_all(Meeting::new()).unwrap();
    let calls = [
        ToolCall::new("l", "left", json!({})),
        ToolCall::new("r", "right", json!({})),
    ];
    tokio::time::timeout(
        Duration::from_secs(60),
        execute_tool_calls(&calls, &tools, RunOptions::new(), mode),
    )
    .await
    .ok()
}

#[tokio::test(start_paused = true)]
async fn two_tools_of_one_box_run_at_the_same_time() {
    let results = meet(ExecutionMode::Parallel)
        .await
        .expect("both calls reached the barrier together");
    let texts: Vec<&str> = results.iter().map(text_of).collect();
    assert_eq!(texts, ["left met right", "right met left"]);
    // The control: one at a time, the first call waits for the second
    // forever, so the barrier does tell parallel from sequential.
    assert!(meet(ExecutionMode::Sequential).await.is_none());
}
