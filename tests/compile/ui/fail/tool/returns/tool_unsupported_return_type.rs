use tool_core::tool;

/// Count characters
#[tool]
async fn count(text: String) -> u32 {
    text.chars().count() as u32
}

fn main() {
    let _ = count(String::new());
}
