//! Two variants with the same JSON name after `rename_all`.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(rename_all = "lowercase")]
enum Mode {
    Fast { level: u8 },
    FAST { level: u8 },
}

fn main() {}
