//! `skip` with a constraint: a skipped field is never read.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    query: String,
    #[param(skip, min = 1)]
    retries: u32,
}

fn main() {}
