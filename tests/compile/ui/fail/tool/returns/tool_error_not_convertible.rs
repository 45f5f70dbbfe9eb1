use tool_core::tool;

struct NotAnError;

/// Echo one value
#[tool]
async fn echo(value: String) -> Result<String, NotAnError> {
    if value.is_empty() {
        return Err(NotAnError);
    }
    Ok(value)
}

fn main() {
    let _ = echo(String::new());
}
