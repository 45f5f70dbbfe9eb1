//! `#[tool(callers(..))]`: who may call a tool, written into its
//! definition for the formats with programmatic calling.

use tool_core::{Callers, Tool, tool};

/// Look up a price
#[tool(read_only, callers(direct, code))]
async fn price(item: String) -> String {
    item
}

/// Look up a stock level, from code only
#[tool(callers(code))]
async fn stock(item: String) -> String {
    item
}

/// Echo a value
#[tool]
async fn echo(value: String) -> String {
    value
}

pub fn main() {
    assert_eq!(PriceTool.callers(), Callers::BOTH);
    assert_eq!(StockTool.callers(), Callers::CODE);
    assert_eq!(EchoTool.callers(), Callers::DIRECT);
    let definition = tool_core::ToolDefinition::of(&StockTool);
    assert_eq!(definition.allowed_callers, Callers::CODE);
}
