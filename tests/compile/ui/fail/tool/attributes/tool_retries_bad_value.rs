use tool_core::tool;

/// Echo one value
#[tool(retries = "3")]
async fn quoted(value: String) -> String {
    value
}

/// Echo one value
#[tool(retries = -1)]
async fn negative(value: String) -> String {
    value
}

/// Echo one value
#[tool(retries = 1.5)]
async fn fraction(value: String) -> String {
    value
}

/// Echo one value
#[tool(retries = 4294967296)]
async fn too_many(value: String) -> String {
    value
}

/// Echo one value
#[tool(retries)]
async fn bare(value: String) -> String {
    value
}

fn main() {
    let _ = quoted(String::new());
    let _ = negative(String::new());
    let _ = fraction(String::new());
    let _ = too_many(String::new());
    let _ = bare(String::new());
}
