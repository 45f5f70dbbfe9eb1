use tool_core::tool;

struct Echo;

impl Echo {
    /// Echo one value
    #[tool]
    async fn echo(&self, value: String) -> String {
        value
    }
}

fn main() {
    let _ = Echo.echo(String::new());
}
