use tool_core::tools;

struct Counter {
    count: u64,
}

#[tools]
impl Counter {
    /// Add one
    #[tool]
    async fn add(&mut self) -> String {
        self.count += 1;
        self.count.to_string()
    }
}

fn main() {}
