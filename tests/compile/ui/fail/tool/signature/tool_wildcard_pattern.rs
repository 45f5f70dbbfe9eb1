use tool_core::tool;

/// Ignore one value
#[tool]
async fn ignore(_: String) -> String {
    String::new()
}

fn main() {
    let _ = ignore(String::new());
}
