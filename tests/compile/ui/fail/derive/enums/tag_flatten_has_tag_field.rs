//! A struct variant flattens a struct with a field named like the tag.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Meta {
    kind: String,
}

#[derive(ToolParams)]
#[param(tag = "kind")]
enum Event {
    Click {
        x: u32,
        #[param(flatten)]
        meta: Meta,
    },
}

fn main() {}
