use tool_core::{ToolContext, tool};

/// Tell the call id
#[tool]
async fn whoami(first: &ToolContext, second: ToolContext) -> String {
    format!("{} {}", first.call_id, second.call_id)
}

fn main() {
    let _ = whoami(&ToolContext::new("a"), ToolContext::new("b"));
}
