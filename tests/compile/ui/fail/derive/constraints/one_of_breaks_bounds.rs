//! `one_of` values outside the field's own `min`/`max`.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = [0, 3, 5], min = 1, max = 4)]
    stars: u8,
}

fn main() {}
