use tool_core::ToolParams;

#[derive(ToolParams)]
struct Window {
    days: u32,
}

#[derive(ToolParams)]
struct Forecast {
    #[param(default = {"days": three})]
    window: Window,
    #[param(default = {"days": 3,})]
    other: Window,
}

fn main() {}
