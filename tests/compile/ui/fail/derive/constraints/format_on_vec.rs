//! `format` on a list of strings: it belongs in `items(...)`.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(format = "email")]
    recipients: Vec<String>,
}

fn main() {}
