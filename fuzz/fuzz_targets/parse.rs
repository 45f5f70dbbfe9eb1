//! `ToolParams::parse` on a struct of every field type.
//!
//! Input bytes that are JSON (`serde_json::from_slice`) are parsed as
//! `Everything`'s arguments, and as `WiderTypes`' (issue 21's field types:
//! signed non-zero integers, `Duration`, `Box<str>` and the like, maps
//! with keys that are not strings). The properties, for each:
//!
//! - parse never panics (libFuzzer reports a panic as a crash);
//! - `Ok(v)`: `v` keeps its declared bounds, and `v.to_json()` parses back to
//!   an equal struct whose `to_json()` is the same JSON (floats compare
//!   through their JSON, so `-0.0` and `0.0` differ);
//! - `Err(e)`: at least one problem, at most `MAX_PROBLEMS` kept, each with a
//!   non-empty path and message, and `e.to_string()` is one line per kept
//!   problem (plus `... and N more problems` when some were only counted).
//!
//! The structs are `Everything` and `WiderTypes` of tests/src/everything.rs
//! (every field type and attribute of SPEC's table, and issue 21's).

#![no_main]

use libfuzzer_sys::fuzz_target;
// The struct and the properties, shared with the proptest twin
// (tests/tests/params/fuzz_properties.rs) and the agreement test.
#[path = "../../tests/src/everything.rs"]
#[allow(dead_code)]
mod everything;

use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(arguments) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    if let Err(broken) = everything::check_parse(&arguments) {
        panic!("{broken}");
    }
    if let Err(broken) = everything::check_parse_wider(&arguments) {
        panic!("WiderTypes: {broken}");
    }
    if let Err(broken) = everything::check_parse_serde_words(&arguments) {
        panic!("SerdeWords: {broken}");
    }
});
