use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "kind")]
struct Request {
    query: String,
}

fn main() {}
