use tool_core::{Tool, ToolParams};

mod tools {
    use tool_core::tool;

    /// Echo one value
    #[tool]
    pub async fn echo(value: String) -> String {
        value
    }

    /// Shout one value
    #[tool]
    pub(crate) async fn shout(value: String) -> String {
        value.to_uppercase()
    }
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    // The tool structs, the parameter structs (and their fields) and the
    // functions all keep the function's visibility.
    assert_eq!(tools::EchoTool.name(), "echo");
    assert_eq!(tools::ShoutTool.name(), "shout");
    let params = tools::EchoParams {
        value: "Pi".to_owned(),
    };
    assert_eq!(params.value, "Pi");
    let params = tools::ShoutParams::parse(&serde_json::json!({"value": "pi"})).unwrap();
    assert_eq!(params.value, "pi");

    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    assert_eq!(runtime.block_on(tools::echo("a".into())), "a");
    assert_eq!(runtime.block_on(tools::shout("a".into())), "A");
}
