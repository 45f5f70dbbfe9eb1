//! Every measured variant as a closure that runs it `n` times, with its
//! state (its arguments, a compiled validator, a registry, a runtime)
//! prepared beforehand, so a measurement never counts the preparation.
//!
//! A variant is prepared when it is first run, not when the list is made:
//! the instruction counter then holds only the state of the variant it
//! counts. Otherwise every variant added here would change the heap the
//! others allocate from, and with it their counts (glibc's `malloc` takes
//! other paths on a fuller heap: adding the `script` variants moved the
//! executor line's count by 8-10% when all were prepared up front).

use super::{
    DerivedResult, LINE, Large, Medium, Script, Small, echo_box_registry, echo_dynamic_registry,
    echo_registry, large_args, medium_args, medium_bad_args, results, script_args, script_bad_args,
    small_args,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::hint::black_box;
use std::time::{Duration, Instant};
use tool_core::ExecutionMode;
use tool_core::ToolParams;
use tool_core::ToolResultMessage;

/// Runs a variant `n` times.
type Run = Box<dyn FnMut(usize)>;

/// One way of doing one job (`medium/serde`: serde's derive parsing the
/// medium arguments), shared by the criterion benches, the instruction
/// counter and the interleaved harness, so all three measure the same code.
pub(crate) struct Variant {
    pub name: &'static str,
    prepare: Option<Box<dyn FnOnce() -> Run>>,
    run: Option<Run>,
}

impl Variant {
    fn new(name: &'static str, prepare: impl FnOnce() -> Run + 'static) -> Self {
        Variant {
            name,
            prepare: Some(Box::new(prepare)),
            run: None,
        }
    }

    /// Runs it `n` times (preparing it first, the first time).
    pub(crate) fn run(&mut self, n: usize) {
        (self.prepared())(n);
    }

    /// Runs it `n` times and says how long that took (the preparation, the
    /// first time, is not timed).
    pub(crate) fn time(&mut self, n: u64) -> Duration {
        let run = self.prepared();
        let start = Instant::now();
        run(usize::try_from(n).unwrap_or(usize::MAX));
        start.elapsed()
    }

    fn prepared(&mut self) -> &mut Run {
        if let Some(prepare) = self.prepare.take() {
            self.run = Some(prepare());
        }
        self.run.as_mut().expect("prepared above")
    }
}

/// Where the variant called `name` is in `variants`.
pub(crate) fn index(variants: &[Variant], name: &str) -> usize {
    variants
        .iter()
        .position(|v| v.name == name)
        .unwrap_or_else(|| panic!("unknown variant {name}"))
}

/// The variant called `name` of `variants`.
pub(crate) fn find<'v>(variants: &'v mut [Variant], name: &str) -> &'v mut Variant {
    let at = index(variants, name);
    &mut variants[at]
}

/// The instruction counters' `main`: `<variant> <iterations>` runs one
/// variant that many times; with no arguments (as `cargo bench` runs it) it
/// lists the variants and exits.
#[allow(dead_code)] // Only the instruction counters call it.
pub(crate) fn count_from_args() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut variants = all();
    let [name, iterations] = args.as_slice() else {
        let names: Vec<&str> = variants.iter().map(|v| v.name).collect();
        println!("variants: {}", names.join(", "));
        return;
    };
    let iterations: usize = iterations.parse().expect("a number of iterations");
    find(&mut variants, name).run(iterations);
}

/// Names are `<group>/<how>`; ours is `<group>/tool_core`. The groups:
/// `small`, `medium`, `large`, `script` (the enum-heavy struct) parse valid
/// arguments; `errors` (medium) and `errors_script` parse arguments with
/// three problems; `line` runs the executor on the echo call (`tool_core`:
/// a `#[tool]` function, `tool_core_method`: a `#[tools]` method, both
/// writing the result with `write_json`; `tool_core_to_vec`: with
/// `serde_json::to_vec`; `dynamic`: echo a `DynamicTool` without a schema;
/// `dynamic_schema`: with the derived echo's schema, checked each call);
/// `batch` runs 1,000 echo calls (which never wait) through
/// `execute_tool_calls` in each mode: one iteration is the whole batch;
/// `result_<case>` writes a result (`super::results`) as JSON into a new
/// vector: `write_json`, serde_json's `to_string`, `to_vec` and `to_writer`
/// (the result's `Serialize`), and `serde_derive` (serde's derive of the
/// same shape, `super::DerivedResult`).
pub(crate) fn all() -> Vec<Variant> {
    let mut variants = Vec::new();
    parse_variants::<Small>(&mut variants, "small", small_args);
    parse_variants::<Medium>(&mut variants, "medium", medium_args);
    parse_variants::<Large>(&mut variants, "large", large_args);
    parse_variants::<Script>(&mut variants, "script", script_args);
    error_variants::<Medium>(&mut variants, "errors", medium_bad_args);
    error_variants::<Script>(&mut variants, "errors_script", script_bad_args);
    variants.push(line_variant("line/tool_core", Line::Function));
    variants.push(line_variant("line/tool_core_method", Line::Method));
    variants.push(line_variant("line/tool_core_to_vec", Line::ToVec));
    variants.push(line_variant("line/dynamic", Line::Dynamic));
    variants.push(line_variant("line/dynamic_schema", Line::DynamicSchema));
    variants.push(line_variant("line/serde_json_floor", Line::Floor));
    variants.push(batch_variant("batch/parallel", ExecutionMode::Parallel));
    variants.push(batch_variant("batch/sequential", ExecutionMode::Sequential));
    result_variants(&mut variants);
    variants
}

/// `result_<case>/<how>`: one result written as JSON, each way into a
/// vector of its own starting at serde_json's 128 bytes.
fn result_variants(variants: &mut Vec<Variant>) {
    fn variant<O>(
        name: &'static str,
        case: usize,
        write: impl Fn(&ToolResultMessage) -> O + 'static,
    ) -> Variant {
        Variant::new(name, move || {
            let (_, result) = results().into_iter().nth(case).expect("a case");
            Box::new(move |n| {
                for _ in 0..n {
                    drop(black_box(write(black_box(&result))));
                }
            })
        })
    }
    for (case, (group, _)) in results().iter().enumerate() {
        let group = format!("result_{group}");
        variants.push(variant(named(&group, "write_json"), case, |result| {
            let mut out = Vec::with_capacity(128);
            result.write_json(&mut out).unwrap();
            out
        }));
        variants.push(variant(named(&group, "to_string"), case, |result| {
            serde_json::to_string(result).unwrap()
        }));
        variants.push(variant(named(&group, "to_vec"), case, |result| {
            serde_json::to_vec(result).unwrap()
        }));
        variants.push(variant(named(&group, "to_writer"), case, |result| {
            let mut out = Vec::with_capacity(128);
            serde_json::to_writer(&mut out, result).unwrap();
            out
        }));
        variants.push(variant(named(&group, "serde_derive"), case, |result| {
            serde_json::to_vec(&DerivedResult::from(result)).unwrap()
        }));
    }
}

/// The runtime the executor variants run on: one thread, as a single
/// agent turn would, so no scheduling between threads is counted.
fn current_thread_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// Calls in one `batch` iteration.
pub(crate) const BATCH_CALLS: usize = 1000;

fn batch_variant(name: &'static str, mode: ExecutionMode) -> Variant {
    Variant::new(name, move || {
        let tools = echo_registry();
        let calls: Vec<tool_core::ToolCall> = (0..BATCH_CALLS)
            .map(|index| {
                tool_core::ToolCall::new(
                    format!("call-{index}"),
                    "echo",
                    serde_json::json!({"value": "Pi"}),
                )
            })
            .collect();
        let runtime = current_thread_runtime();
        Box::new(move |n| {
            runtime.block_on(async {
                for _ in 0..n {
                    let results = tool_core::execute_tool_calls(
                        black_box(&calls),
                        &tools,
                        tool_core::RunOptions::default(),
                        mode,
                    )
                    .await;
                    drop(black_box(results));
                }
            })
        })
    })
}

fn named(group: &str, how: &str) -> &'static str {
    Box::leak(format!("{group}/{how}").into_boxed_str())
}

/// `<size>/tool_core`, `<size>/serde` and `<size>/jsonschema_serde` (a
/// validator compiled once from `T::json_schema()`, then serde).
fn parse_variants<T: ToolParams + DeserializeOwned + 'static>(
    variants: &mut Vec<Variant>,
    size: &'static str,
    arguments: fn() -> Value,
) {
    let valid = move || {
        let arguments = arguments();
        assert!(T::parse(&arguments).is_ok(), "{size}: ours rejects them");
        arguments
    };
    variants.push(Variant::new(named(size, "tool_core"), move || {
        let ours = valid();
        Box::new(move |n| {
            for _ in 0..n {
                drop(black_box(T::parse(black_box(&ours)).expect("valid")));
            }
        })
    }));
    variants.push(Variant::new(named(size, "serde"), move || {
        let theirs = valid();
        Box::new(move |n| {
            for _ in 0..n {
                drop(black_box(
                    T::deserialize(black_box(&theirs)).expect("valid"),
                ));
            }
        })
    }));
    variants.push(Variant::new(named(size, "jsonschema_serde"), move || {
        let both = valid();
        let validator =
            jsonschema::draft202012::new(&T::json_schema()).expect("the derived schema compiles");
        assert!(validator.is_valid(&both), "{size}: the schema rejects them");
        Box::new(move |n| {
            for _ in 0..n {
                let arguments = black_box(&both);
                assert!(validator.is_valid(arguments));
                drop(black_box(T::deserialize(arguments).expect("valid")));
            }
        })
    }));
}

/// `<group>/tool_core` reports every one of the three problems in the
/// arguments, `<group>/serde` the first; both render the error as a
/// `String`.
fn error_variants<T: ToolParams + DeserializeOwned + std::fmt::Debug + 'static>(
    variants: &mut Vec<Variant>,
    group: &'static str,
    arguments: fn() -> Value,
) {
    let invalid = move || {
        let bad = arguments();
        let Err(problems) = T::parse(&bad) else {
            panic!("{group}: ours accepts the bad arguments")
        };
        assert_eq!(problems.count(), 3, "{group}: {problems}");
        assert!(T::deserialize(&bad).is_err(), "{group}: serde accepts them");
        bad
    };
    variants.push(Variant::new(named(group, "tool_core"), move || {
        let ours = invalid();
        Box::new(move |n| {
            for _ in 0..n {
                drop(black_box(
                    T::parse(black_box(&ours)).unwrap_err().to_string(),
                ));
            }
        })
    }));
    variants.push(Variant::new(named(group, "serde"), move || {
        let theirs = invalid();
        Box::new(move |n| {
            for _ in 0..n {
                drop(black_box(
                    T::deserialize(black_box(&theirs)).unwrap_err().to_string(),
                ));
            }
        })
    }));
}

/// Who answers the echo call line.
#[derive(Clone, Copy, PartialEq)]
enum Line {
    /// The executor, with echo a `#[tool]` function.
    Function,
    /// The executor, with echo a `#[tools]` method.
    Method,
    /// The executor, with echo a `#[tool]` function, its result written by
    /// `serde_json::to_vec` (serde's derive) instead of `write_json`.
    ToVec,
    /// The executor, with echo a `DynamicTool` without a schema.
    Dynamic,
    /// The executor, with echo a `DynamicTool` whose schema is checked.
    DynamicSchema,
    /// serde_json parsing and serializing the line: the floor.
    Floor,
}

fn line_variant(name: &'static str, answerer: Line) -> Variant {
    Variant::new(name, move || {
        let tools = match answerer {
            Line::Method => echo_box_registry(),
            Line::Dynamic => echo_dynamic_registry(false),
            Line::DynamicSchema => echo_dynamic_registry(true),
            Line::Function | Line::ToVec | Line::Floor => echo_registry(),
        };
        let ours = answerer != Line::Floor;
        let runtime = current_thread_runtime();
        if ours {
            // What is measured is the echo answered, not a refusal.
            let call: tool_core::ToolCall = serde_json::from_str(LINE).unwrap();
            let result = runtime.block_on(tool_core::execute_tool_call(
                &call,
                &tools,
                tool_core::RunOptions::default(),
            ));
            assert!(!result.is_error, "{name}: {result:?}");
        }
        Box::new(move |n| {
            runtime.block_on(async {
                for _ in 0..n {
                    let line = black_box(LINE);
                    let out = if ours {
                        let call: tool_core::ToolCall = serde_json::from_str(line).unwrap();
                        let result = tool_core::execute_tool_call(
                            &call,
                            &tools,
                            tool_core::RunOptions::default(),
                        )
                        .await;
                        if answerer == Line::ToVec {
                            serde_json::to_vec(&result).unwrap()
                        } else {
                            // As serde_json::to_vec starts.
                            let mut out = Vec::with_capacity(128);
                            result.write_json(&mut out).unwrap();
                            out
                        }
                    } else {
                        let value: Value = serde_json::from_str(line).unwrap();
                        serde_json::to_vec(&value).unwrap()
                    };
                    drop(black_box(out));
                }
            })
        })
    })
}
