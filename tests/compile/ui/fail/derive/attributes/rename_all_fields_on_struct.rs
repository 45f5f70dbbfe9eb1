//! `rename_all_fields` belongs on an enum (it renames its variants' fields).
use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(rename_all_fields = "camelCase")]
struct Request {
    page_size: u32,
}

fn main() {}
