use tool_core::tools;

struct Echo;

#[tools]
impl Echo {
    /// Echo one value
    #[tool]
    async fn echo<T: Into<String>>(&self, value: String) -> String {
        value
    }
}

fn main() {}
