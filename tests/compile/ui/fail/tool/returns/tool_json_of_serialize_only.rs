use tool_core::{Json, tool};

#[derive(serde::Serialize)]
struct Count {
    total: u32,
}

/// Count characters
#[tool]
async fn count(text: String) -> Json<Count> {
    Json::new(Count {
        total: text.chars().count() as u32,
    })
}

fn main() {}
