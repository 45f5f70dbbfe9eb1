use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(rename_all = "camel_case")]
struct Request {
    max_results: u32,
}

fn main() {}
