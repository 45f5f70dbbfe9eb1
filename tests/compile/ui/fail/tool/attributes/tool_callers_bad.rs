use tool_core::tool;

/// Look up a price
#[tool(callers(model, code, code))]
async fn price(item: String) -> String {
    item
}

/// Look up a stock level
#[tool(callers)]
async fn stock(item: String) -> String {
    item
}

fn main() {}
