//! An `example` needs a value, and one that is visibly not an object (a
//! literal, an array) is refused where it is written: a tool's arguments
//! are always an object. Every mistake of one attribute at once.
use tool_core::tool;

/// Echo one value
#[tool(example)]
async fn bare(value: String) -> String {
    value
}

/// Echo one value
#[tool(example = 5, example = -1.5, example = true)]
async fn scalars(value: String) -> String {
    value
}

/// Echo one value
#[tool(example = "{\"value\": \"x\"}")]
async fn json_text(value: String) -> String {
    value
}

/// Echo one value
#[tool(example = serde_json::json!({"value": "fine"}), example = [1, 2])]
async fn array(value: String) -> String {
    value
}

fn main() {
    let _ = bare(String::new());
    let _ = scalars(String::new());
    let _ = json_text(String::new());
    let _ = array(String::new());
}
