//! An example's expression is evaluated as a `serde_json::Value`; any
//! other type is a type error at the expression.
use tool_core::tool;

fn sample() -> String {
    String::from("{\"value\": \"x\"}")
}

/// Echo one value
#[tool(example = sample())]
async fn echo(value: String) -> String {
    value
}

fn main() {
    let _ = echo(String::new());
}
