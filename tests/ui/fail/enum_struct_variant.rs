use tool_core::ToolParams;

#[derive(ToolParams)]
enum Shape {
    Empty,
    Rect { width: f64, height: f64 },
}

fn main() {}
