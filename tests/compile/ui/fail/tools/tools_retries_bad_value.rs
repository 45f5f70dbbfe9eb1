use tool_core::tools;

struct Notes;

#[tools]
impl Notes {
    /// Read a note
    #[tool(retries = "many")]
    async fn read(&self, name: String) -> String {
        name
    }

    /// Write a note
    #[tool(retries = 2, retries = 3)]
    async fn write(&self, name: String) -> String {
        name
    }
}

fn main() {}
