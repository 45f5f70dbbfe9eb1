use tool_core::tool;

/// Echo one value
#[tool(name = 5)]
async fn echo(value: String) -> String {
    value
}

fn main() {
    let _ = echo(String::new());
}
