//! Every mistake of a #[tools] impl is reported at once.
use tool_core::tools;

struct Box1;

#[tools]
impl Box1 {
    /// One
    #[tool(read_only = 1)]
    async fn one(&mut self) -> String {
        String::new()
    }

    #[tool]
    async fn two(&self) -> String {
        String::new()
    }
}

fn main() {}
