use tool_core::tool;

/// Echo one value
#[tool]
fn echo(value: String) -> String {
    value
}

fn main() {
    // The function is still emitted as written, so this call compiles.
    let _ = echo(String::new());
}
