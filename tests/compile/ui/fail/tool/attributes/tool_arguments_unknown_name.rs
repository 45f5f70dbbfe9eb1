use tool_core::tool;

/// Read a file
///
/// # Arguments
///
/// * `path` - The file to read
/// * `limt` - The most lines to read
#[tool]
async fn read(path: String, limit: Option<u32>) -> String {
    format!("{path} {limit:?}")
}

fn main() {}
