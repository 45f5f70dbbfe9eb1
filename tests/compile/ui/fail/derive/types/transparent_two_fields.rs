//! `transparent` with two fields read, and with object-only attributes.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(transparent)]
struct Pair {
    a: String,
    b: String,
}

#[derive(ToolParams)]
#[param(transparent, deny_unknown_fields)]
struct Id {
    #[param(rename = "id", max_length = 8)]
    value: String,
}

fn main() {}
