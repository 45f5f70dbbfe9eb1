use tool_core::tool;

struct Color(u32);

/// Paint something
#[tool]
async fn paint(name: String, color: Color) -> String {
    format!("{name}: {}", color.0)
}

fn main() {
    let _ = paint(String::new(), Color(0));
}
