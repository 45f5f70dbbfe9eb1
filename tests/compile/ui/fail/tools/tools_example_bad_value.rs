//! A `#[tools]` method's `example` is checked as a function's is, beside
//! the method's other mistakes.
use tool_core::tools;

struct Shelf;

#[tools]
impl Shelf {
    /// Take a book
    #[tool(example = "Dune")]
    async fn take(&self, title: String) -> String {
        title
    }

    /// Count the books
    #[tool(example)]
    async fn count(&self) -> String {
        String::new()
    }
}

fn main() {}
