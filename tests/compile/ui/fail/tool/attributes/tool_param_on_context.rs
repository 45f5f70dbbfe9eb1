use tool_core::{ToolContext, tool};

/// Tell the call id
#[tool]
async fn whoami(#[param(description = "the context")] ctx: &ToolContext) -> String {
    ctx.call_id.clone()
}

fn main() {
    let _ = whoami(&ToolContext::new("call-1"));
}
