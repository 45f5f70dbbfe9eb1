//! Every measured variant as a closure that runs it `n` times, with its
//! state (a compiled validator, a registry, a runtime) prepared beforehand,
//! so a measurement never counts the preparation.

use super::{
    LINE, Large, Medium, Small, echo_registry, large_args, medium_args, medium_bad_args, small_args,
};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::hint::black_box;
use std::time::{Duration, Instant};
use tool_core::ToolParams;

/// One way of doing one job (`medium/serde`: serde's derive parsing the
/// medium arguments), shared by the criterion benches, the instruction
/// counter and the interleaved harness, so all three measure the same code.
pub struct Variant {
    pub name: &'static str,
    pub run: Box<dyn FnMut(usize)>,
}

impl Variant {
    /// Runs it `n` times and says how long that took.
    pub fn time(&mut self, n: u64) -> Duration {
        let start = Instant::now();
        (self.run)(usize::try_from(n).unwrap_or(usize::MAX));
        start.elapsed()
    }
}

/// Where the variant called `name` is in `variants`.
pub fn index(variants: &[Variant], name: &str) -> usize {
    variants
        .iter()
        .position(|v| v.name == name)
        .unwrap_or_else(|| panic!("unknown variant {name}"))
}

/// The variant called `name` of `variants`.
pub fn find<'v>(variants: &'v mut [Variant], name: &str) -> &'v mut Variant {
    let at = index(variants, name);
    &mut variants[at]
}

/// Names are `<group>/<how>`; ours is `<group>/tool_core`.
pub fn all() -> Vec<Variant> {
    let mut variants = Vec::new();
    parse_variants::<Small>(&mut variants, "small", small_args());
    parse_variants::<Medium>(&mut variants, "medium", medium_args());
    parse_variants::<Large>(&mut variants, "large", large_args());
    let bad = medium_bad_args();
    let problems = Medium::parse(&bad).unwrap_err();
    assert_eq!(problems.count(), 3, "{problems}");
    let bad_too = bad.clone();
    variants.push(Variant {
        name: "errors/tool_core",
        run: Box::new(move |n| {
            for _ in 0..n {
                drop(black_box(
                    Medium::parse(black_box(&bad)).unwrap_err().to_string(),
                ));
            }
        }),
    });
    variants.push(Variant {
        name: "errors/serde",
        run: Box::new(move |n| {
            for _ in 0..n {
                drop(black_box(
                    Medium::deserialize(black_box(&bad_too))
                        .unwrap_err()
                        .to_string(),
                ));
            }
        }),
    });
    variants.push(line_variant("line/tool_core", true));
    variants.push(line_variant("line/serde_json_floor", false));
    variants
}

fn parse_variants<T: ToolParams + DeserializeOwned + 'static>(
    variants: &mut Vec<Variant>,
    size: &'static str,
    arguments: Value,
) {
    let validator =
        jsonschema::draft202012::new(&T::json_schema()).expect("the derived schema compiles");
    assert!(T::parse(&arguments).is_ok() && validator.is_valid(&arguments));
    let (ours, theirs, both) = (arguments.clone(), arguments.clone(), arguments);
    let name = |how: &str| -> &'static str { Box::leak(format!("{size}/{how}").into_boxed_str()) };
    variants.push(Variant {
        name: name("tool_core"),
        run: Box::new(move |n| {
            for _ in 0..n {
                drop(black_box(T::parse(black_box(&ours)).expect("valid")));
            }
        }),
    });
    variants.push(Variant {
        name: name("serde"),
        run: Box::new(move |n| {
            for _ in 0..n {
                drop(black_box(
                    T::deserialize(black_box(&theirs)).expect("valid"),
                ));
            }
        }),
    });
    variants.push(Variant {
        name: name("jsonschema_serde"),
        run: Box::new(move |n| {
            for _ in 0..n {
                let arguments = black_box(&both);
                assert!(validator.is_valid(arguments));
                drop(black_box(T::deserialize(arguments).expect("valid")));
            }
        }),
    });
}

fn line_variant(name: &'static str, ours: bool) -> Variant {
    let tools = echo_registry();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    Variant {
        name,
        run: Box::new(move |n| {
            runtime.block_on(async {
                for _ in 0..n {
                    let line = black_box(LINE);
                    let out = if ours {
                        let call: tool_core::ToolCall = serde_json::from_str(line).unwrap();
                        let result = tool_core::execute_tool_call(
                            &call,
                            &tools,
                            tool_core::CallContext::default(),
                        )
                        .await;
                        serde_json::to_string(&result).unwrap()
                    } else {
                        let value: Value = serde_json::from_str(line).unwrap();
                        serde_json::to_string(&value).unwrap()
                    };
                    drop(black_box(out));
                }
            })
        }),
    }
}
