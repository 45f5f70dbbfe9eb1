use tool_core::tool;

/// Echo one value
#[tool(alias = "repeat")]
async fn echo(value: String) -> String {
    value
}

fn main() {
    let _ = echo(String::new());
}
