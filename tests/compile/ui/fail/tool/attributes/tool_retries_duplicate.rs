use tool_core::tool;

/// Echo one value
#[tool(retries = 1, timeout_ms = 50, retries = 2)]
async fn echo(value: String) -> String {
    value
}

fn main() {
    let _ = echo(String::new());
}
