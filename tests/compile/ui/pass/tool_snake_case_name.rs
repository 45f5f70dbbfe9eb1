use serde_json::json;
use tool_core::{Tool, ToolParams, tool};

/// Reads a file
#[tool]
async fn read_file(path: String, line_count: Option<u32>) -> String {
    format!("{path}:{line_count:?}")
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    // `read_file` gives `ReadFileTool` and `ReadFileParams`; the tool keeps
    // the function's name and the parameters keep theirs.
    assert_eq!(ReadFileTool.name(), "read_file");
    assert_eq!(ReadFileTool.description(), "Reads a file");
    assert_eq!(
        ReadFileParams::json_schema(),
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "line_count": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
            },
            "required": ["path"],
            "additionalProperties": false,
        })
    );
    let params = ReadFileParams::parse(&json!({"path": "a.txt", "line_count": 3})).unwrap();
    assert_eq!(
        (params.path.as_str(), params.line_count),
        ("a.txt", Some(3))
    );
}
