//! A literal `default` longer than `max_length`, counted in characters as
//! parse counts them (4 characters, 8 bytes: `max_length = 4` would pass),
//! and one shorter than `min_length`.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(max_length = 3, default = "éééé")]
    code: String,
    #[param(min_length = 2, default = "x")]
    name: String,
}

fn main() {}
