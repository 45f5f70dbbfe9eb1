//! `one_of` strings the field's `pattern` or `min_length` refuse, on the
//! field and on each item.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = ["main", "Dev"], pattern = "^[a-z]+$")]
    branch: String,
    #[param(items(one_of = ["a", "abc"], min_length = 2))]
    codes: Vec<String>,
}

fn main() {}
