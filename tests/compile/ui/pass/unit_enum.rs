use serde_json::json;
use tool_core::ToolParams;

/// How results are ordered.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "snake_case")]
enum Order {
    MostRecent,
    #[param(rename = "best")]
    BestMatch,
    Alphabetical,
}

#[derive(ToolParams, Debug, PartialEq)]
struct List {
    order: Order,
    fallback: Option<Order>,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    assert_eq!(
        List::json_schema(),
        json!({
            "type": "object",
            "properties": {
                "order": {
                    "description": "How results are ordered.",
                    "type": "string",
                    "enum": ["most_recent", "best", "alphabetical"],
                },
                "fallback": {
                    "description": "How results are ordered.",
                    "type": "string",
                    "enum": ["most_recent", "best", "alphabetical"],
                },
            },
            "required": ["order"],
            "additionalProperties": false,
        })
    );

    let list = List::parse(&json!({"order": "best", "fallback": "most_recent"})).unwrap();
    assert_eq!(
        list,
        List {
            order: Order::BestMatch,
            fallback: Some(Order::MostRecent)
        }
    );

    let error = List::parse(&json!({"order": "BestMatch", "fallback": 1})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "order: expected one of \"most_recent\", \"best\", \"alphabetical\", got \"BestMatch\"\n\
         fallback: expected one of \"most_recent\", \"best\", \"alphabetical\", got number 1"
    );
}
