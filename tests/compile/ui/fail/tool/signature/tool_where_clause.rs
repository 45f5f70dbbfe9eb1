use tool_core::tool;

/// Echo one value
#[tool]
async fn echo(value: String) -> String
where
    String: Clone,
{
    value
}

fn main() {
    let _ = echo(String::new());
}
