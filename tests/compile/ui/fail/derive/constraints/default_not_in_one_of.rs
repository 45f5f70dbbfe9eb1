//! A literal `default` outside `one_of`: parse of `{}` would give 3, which
//! the schema's `enum` forbids.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = [1, 2], default = 3)]
    level: u8,
}

fn main() {}
