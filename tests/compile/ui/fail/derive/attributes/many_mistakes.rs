use tool_core::ToolParams;

#[derive(ToolParams)]
#[param(rename_all = "camel", strict)]
struct Request {
    #[param(rename = 5)]
    query: String,
    #[param(min = 10, max = 1, nickname = "n")]
    limit: u32,
    #[param(rename = "label")]
    tag: String,
    label: String,
}

fn main() {}
