use tool_core::tools;

struct Texts;

#[tools]
impl Texts {
    /// Echo one value
    #[tool]
    async fn echo(&self, value: String) -> String {
        value
    }

    /// Echo it louder
    #[tool(name = "echo")]
    async fn shout(&self, value: String) -> String {
        value.to_uppercase()
    }
}

fn main() {}
