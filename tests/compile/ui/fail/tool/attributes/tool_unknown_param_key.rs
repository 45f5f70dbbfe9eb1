use tool_core::tool;

/// Echo one value
#[tool]
async fn echo(#[param(nickname = "v")] value: String) -> String {
    value
}

fn main() {
    let _ = echo(String::new());
}
