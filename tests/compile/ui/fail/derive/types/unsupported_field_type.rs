use tool_core::ToolParams;

struct Color(u32);

#[derive(ToolParams)]
struct Paint {
    name: String,
    color: Color,
}

fn main() {}
