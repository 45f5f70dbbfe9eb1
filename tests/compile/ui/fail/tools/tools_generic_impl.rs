use tool_core::tools;

struct Holder<T>(T);

#[tools]
impl<T: Send + Sync + 'static> Holder<T> {
    /// Echo one value
    #[tool]
    async fn echo(&self, value: String) -> String {
        value
    }
}

fn main() {}
