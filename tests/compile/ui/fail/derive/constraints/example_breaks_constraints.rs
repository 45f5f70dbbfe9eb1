//! Literal examples parse would refuse: above `max`, out of the type's
//! range, not in `one_of`, not matched by `pattern`.
use tool_core::ToolParams;

#[derive(ToolParams)]
struct Request {
    #[param(max = 5, example = 7)]
    retries: u8,
    #[param(example = 300)]
    level: u8,
    #[param(one_of = ["low", "high"], example = "medium")]
    priority: String,
    #[param(pattern = "^[A-Z]{3}-\\d+$", example = "abc-1")]
    ticket: String,
}

fn main() {}
