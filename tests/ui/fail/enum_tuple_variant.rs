use tool_core::ToolParams;

#[derive(ToolParams)]
enum Shape {
    Empty,
    Circle(f64),
}

fn main() {}
