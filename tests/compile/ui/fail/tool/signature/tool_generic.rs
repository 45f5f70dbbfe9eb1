use tool_core::tool;

/// Echo one value
#[tool]
async fn echo<T: ToString>(value: T) -> String {
    value.to_string()
}

fn main() {
    let _ = echo(1);
}
