use std::collections::BTreeMap;
use tool_core::ToolParams;

#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Color(u32);

#[derive(ToolParams)]
struct Palette {
    names: BTreeMap<Color, String>,
}

fn main() {}
