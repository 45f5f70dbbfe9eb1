use tool_core::tools;

struct Echo;

#[tools]
impl Echo {
    /// Echo one value
    #[tool]
    fn echo(&self, value: String) -> String {
        value
    }
}

fn main() {}
