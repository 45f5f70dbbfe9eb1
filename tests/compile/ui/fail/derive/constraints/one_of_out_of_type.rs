//! `one_of` values the field's type cannot hold: 300 for a `u8`, -1 for
//! the items of a `Vec<u16>`, 0 for a `NonZeroU32`, 1e39 for an `f32`.
use std::num::NonZeroU32;
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(one_of = [1, 300])]
    level: u8,
    #[param(items(one_of = [-1, 2]))]
    ports: Vec<u16>,
    #[param(one_of = [0, 1])]
    count: Option<NonZeroU32>,
    #[param(one_of = [1e39])]
    scale: f32,
}

fn main() {}
