//! An alias that is another variant's name, and one that repeats its own.
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(rename_all = "lowercase")]
enum Level {
    #[param(alias = "error")]
    Warning,
    #[param(alias = "fatal", alias = "fatal")]
    Error,
}

fn main() {}
