//! An unknown `format`: the message lists the known ones.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(format = "phone")]
    contact: String,
}

fn main() {}
