use tool_core::tool;

/// Add two numbers
#[tool]
async fn add((a, b): (u8, u8)) -> String {
    (a + b).to_string()
}

fn main() {
    let _ = add((1, 2));
}
