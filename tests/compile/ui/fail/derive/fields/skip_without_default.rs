//! `skip` on a field whose type has no `Default`, without `default = ..`.
use tool_core::ToolParams;

struct Handle(u32);

#[derive(ToolParams)]
struct Request {
    query: String,
    #[param(skip)]
    handle: Handle,
}

fn main() {}
