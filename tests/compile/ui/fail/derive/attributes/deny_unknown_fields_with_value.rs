use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(deny_unknown_fields = true)]
struct Request {
    query: String,
}

fn main() {}
