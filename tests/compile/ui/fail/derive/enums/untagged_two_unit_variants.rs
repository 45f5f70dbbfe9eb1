//! Two unit variants in an untagged enum: both are `null`.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(untagged)]
enum Limit {
    Count(u32),
    Unlimited,
    Default,
}

fn main() {}
