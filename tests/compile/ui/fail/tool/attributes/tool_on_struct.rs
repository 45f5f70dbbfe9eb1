use tool_core::tool;

/// Echo one value
#[tool]
struct Echo {
    value: String,
}

fn main() {
    // The struct is still emitted as written.
    let echo = Echo {
        value: String::new(),
    };
    let _ = echo.value;
}
