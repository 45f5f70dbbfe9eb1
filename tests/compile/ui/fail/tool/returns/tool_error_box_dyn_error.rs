use tool_core::tool;

/// Read a number
#[tool]
async fn read_number(text: String) -> Result<String, Box<dyn std::error::Error>> {
    let number: i64 = text.parse()?;
    Ok(number.to_string())
}

fn main() {}
