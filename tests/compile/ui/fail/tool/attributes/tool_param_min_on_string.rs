use tool_core::tool;

/// Echo one value
#[tool]
async fn echo(#[param(min = 1)] value: String) -> String {
    value
}

fn main() {
    let _ = echo(String::new());
}
