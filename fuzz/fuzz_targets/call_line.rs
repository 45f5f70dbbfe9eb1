//! The JSON-line handling of `tool-examples call`: `classify(bytes, 1)`, which
//! turns one input line into a call to run, nothing, or the answer written
//! for a line that is no call.
//!
//! The properties (tool-examples/tests/support/line_property.rs): classify
//! never panics (libFuzzer reports a panic as a crash); `Blank` exactly for
//! blank lines; a `Call` round-trips through serde, floats exactly (the
//! workspace builds serde_json with `float_roundtrip`, since the finding in
//! fuzz/README.md; `--features lenient-floats` allows 4 ULPs of drift for a
//! build without it); an `Answer` is one line of valid JSON, paired to the
//! line's id when it has one.

#![no_main]

use libfuzzer_sys::fuzz_target;
// The properties, shared with the property test
// (tool-examples/tests/cli/line_properties.rs).
#[path = "../../tool-examples/tests/support/line_property.rs"]
mod line_property;

/// Units in the last place a float may move when a call is written and read
/// again: none since serde_json is built with `float_roundtrip`; the
/// `lenient-floats` feature allows 4, for fuzzing a build without it.
const FLOAT_DRIFT_ULPS: u64 = if cfg!(feature = "lenient-floats") {
    4
} else {
    0
};

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = line_property::check_line(data, 1, FLOAT_DRIFT_ULPS) {
        panic!("{broken}");
    }
});
