use tool_core::ToolParams;

#[derive(ToolParams)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
