use tool_core::tool;

/// Echo one value
#[tool]
async fn echo(value: &str) -> String {
    value.to_owned()
}

fn main() {
    let _ = echo("");
}
