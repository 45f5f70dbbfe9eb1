use tool_core::tool;

/// Log one value
#[tool]
async fn log(value: String) {
    let _ = value;
}

fn main() {
    let _ = log(String::new());
}
