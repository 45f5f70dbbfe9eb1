use serde_json::json;
use tool_core::ToolParams;

fn default_limit() -> u8 {
    10
}

#[derive(ToolParams, Debug, PartialEq)]
struct Search {
    #[param(description = "What to look for", min_length = 1, max_length = 20)]
    query: String,
    #[param(rename = "max", min = 1, max = 50, default = default_limit())]
    limit: u8,
    #[param(default)]
    exact: bool,
    #[param(default = "en")]
    language: String,
    #[param(min = -1.5, max = 1.5)]
    weight: Option<f64>,
    #[param(min_length = 1, max_length = 3)]
    tags: Vec<String>,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    assert_eq!(
        Search::json_schema(),
        json!({
            "type": "object",
            "properties": {
                "query": {"description": "What to look for", "type": "string", "minLength": 1, "maxLength": 20},
                "max": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                "exact": {"type": "boolean", "default": false},
                "language": {"type": "string", "default": "en"},
                "weight": {"type": "number", "minimum": -1.5, "maximum": 1.5},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
            },
            "required": ["query", "tags"],
            "additionalProperties": false,
        })
    );

    let parsed = Search::parse(&json!({"query": "rust", "tags": ["lang"]})).unwrap();
    assert_eq!(
        parsed,
        Search {
            query: "rust".into(),
            limit: 10,
            exact: false,
            language: "en".into(),
            weight: None,
            tags: vec!["lang".into()],
        }
    );

    let parsed = Search::parse(&json!({
        "query": "rust", "max": 50, "exact": true, "language": "fr", "weight": -1.5,
        "tags": ["a", "b", "c"],
    }))
    .unwrap();
    assert_eq!(
        (parsed.limit, parsed.exact, parsed.language.as_str()),
        (50, true, "fr")
    );
    assert_eq!(parsed.weight, Some(-1.5));

    // `limit` is read from "max" only: the Rust name is not a JSON key.
    let error = Search::parse(&json!({"query": "", "limit": 3, "max": 0, "weight": 2, "tags": []}))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "query: expected string of at least 1 character, got 0\n\
         max: expected integer >= 1, got 0\n\
         weight: expected number <= 1.5, got 2\n\
         tags: expected array of at least 1 item, got 0"
    );
}
