use tool_core::tool;

#[tool]
async fn echo(value: String) -> String {
    value
}

fn main() {
    let _ = echo(String::new());
}
