//! A crate that denies missing docs: the generated items are documented.

#![deny(missing_docs)]

use tool_core::{Tool, tool};

/// Echo one value
#[tool]
pub async fn echo(value: String) -> String {
    value
}

/// Tools in a public module.
pub mod tools {
    use tool_core::{ToolContext, tool};

    /// Tell the call id
    #[tool]
    pub async fn whoami(ctx: &ToolContext, prefix: String) -> String {
        format!("{prefix}{}", ctx.call_id)
    }
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    assert_eq!(EchoTool.name(), "echo");
    assert_eq!(tools::WhoamiTool.name(), "whoami");
    let params = EchoParams {
        value: String::new(),
    };
    let _ = params.value;
    let params = tools::WhoamiParams {
        prefix: String::new(),
    };
    let _ = params.prefix;
}
