use tool_core::tool;

/// Count characters
#[tool]
async fn count(text: String) -> Result<u32, String> {
    Ok(text.chars().count() as u32)
}

fn main() {
    let _ = count(String::new());
}
