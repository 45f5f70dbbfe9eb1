use serde_json::json;
use tool_core::ToolParams;

/// Reads a file.
///
/// Lines of one paragraph
/// are joined with a space.
#[derive(ToolParams)]
struct Read {
    /// The path to read,
    /// relative to the workspace.
    ///
    ///
    /// Absolute paths are refused.
    #[allow(dead_code)]
    path: String,
    #[doc = " Set by a `#[doc]` attribute."]
    #[allow(dead_code)]
    offset: Option<u64>,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let schema = Read::json_schema();
    assert_eq!(
        schema["description"],
        json!("Reads a file.\n\nLines of one paragraph are joined with a space.")
    );
    assert_eq!(
        schema["properties"]["path"],
        json!({
            "description": "The path to read, relative to the workspace.\n\nAbsolute paths are refused.",
            "type": "string",
        })
    );
    assert_eq!(
        schema["properties"]["offset"]["description"],
        json!("Set by a `#[doc]` attribute.")
    );
}
