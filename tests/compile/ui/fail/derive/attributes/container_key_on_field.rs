use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(deny_unknown_fields)]
    query: String,
}

fn main() {}
