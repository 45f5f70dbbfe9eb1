//! Two variants with the same JSON name after a variant's `rename`.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "mode")]
enum Mode {
    Quick,
    #[param(rename = "Quick")]
    Thorough { depth: u8 },
}

fn main() {}
