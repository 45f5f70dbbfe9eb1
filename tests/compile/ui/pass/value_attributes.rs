//! `one_of`, `pattern`, `format`, `example` and `deprecated` on fields, and
//! `items(...)` on lists, sets and arrays: the schema keywords, and parse
//! refusing what they refuse.
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;
use tool_core::{ToolParams, params::ParamValue};

#[derive(ToolParams, Debug, PartialEq)]
struct Search {
    #[param(one_of = [1, 5, 10], example = 5)]
    level: u8,
    #[param(one_of = [0.5, 1, 1.5])]
    ratio: Option<f64>,
    #[param(one_of = ["fast", "thorough"], default = "fast")]
    mode: String,
    #[param(pattern = "^[A-Z]{3}-\\d+$", example = "ABC-1", example = "XYZ-42")]
    ticket: String,
    #[param(pattern = "^/", description = "An absolute path")]
    root: PathBuf,
    #[param(example = 0.25, example = -1)]
    weight: f32,
    #[param(example = true)]
    exact: bool,
    #[param(example = vec!["rust".to_owned(), "serde".to_owned()])]
    keywords: Vec<String>,
    /// Use `mode` instead.
    #[param(deprecated)]
    fast: Option<bool>,
    #[param(items(description = "A page number", min = 1, max = 500))]
    pages: Vec<u32>,
    #[param(
        min_length = 1,
        items(min_length = 2, max_length = 8, pattern = "^[a-z]+$")
    )]
    tags: BTreeSet<String>,
    #[param(items(format = "email"))]
    to: HashSet<String>,
    #[param(items(one_of = ["x", "y", "z"]))]
    axes: [String; 2],
    #[param(items(one_of = [1, 2, 3]))]
    choices: Option<Vec<u8>>,
    #[param(items(max = 1.5, one_of = [0.5, 1.5]))]
    scales: Vec<f64>,
}

#[derive(ToolParams, Debug, PartialEq)]
struct Formats {
    #[param(format = "date-time")]
    at: String,
    #[param(format = "date")]
    day: String,
    #[param(format = "time")]
    time: String,
    #[param(format = "duration")]
    lasting: String,
    #[param(format = "email")]
    email: String,
    #[param(format = "hostname")]
    host: String,
    #[param(format = "ipv4")]
    v4: String,
    #[param(format = "ipv6")]
    v6: String,
    #[param(format = "uuid")]
    id: String,
    #[param(format = "uri")]
    link: Option<String>,
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let schema = Search::json_schema();
    let properties = &schema["properties"];
    assert_eq!(
        properties["level"],
        json!({"type": "integer", "minimum": 0, "maximum": 255, "enum": [1, 5, 10], "examples": [5]})
    );
    assert_eq!(
        properties["ratio"],
        json!({"type": "number", "enum": [0.5, 1, 1.5]})
    );
    assert_eq!(
        properties["mode"],
        json!({"type": "string", "enum": ["fast", "thorough"], "default": "fast"})
    );
    assert_eq!(
        properties["ticket"],
        json!({"type": "string", "pattern": "^[A-Z]{3}-\\d+$", "examples": ["ABC-1", "XYZ-42"]})
    );
    assert_eq!(
        properties["root"],
        json!({"description": "An absolute path", "type": "string", "pattern": "^/"})
    );
    assert_eq!(properties["weight"]["examples"], json!([0.25, -1]));
    assert_eq!(
        properties["exact"],
        json!({"type": "boolean", "examples": [true]})
    );
    assert_eq!(
        properties["keywords"],
        json!({"type": "array", "items": {"type": "string"}, "examples": [["rust", "serde"]]})
    );
    assert_eq!(
        properties["fast"],
        json!({"description": "Use `mode` instead.", "type": "boolean", "deprecated": true})
    );
    assert_eq!(
        properties["pages"],
        json!({"type": "array", "items": {
            "description": "A page number", "type": "integer", "minimum": 1, "maximum": 500,
        }})
    );
    assert_eq!(
        properties["tags"],
        json!({
            "type": "array",
            "items": {"type": "string", "minLength": 2, "maxLength": 8, "pattern": "^[a-z]+$"},
            "uniqueItems": true,
            "minItems": 1,
        })
    );
    assert_eq!(
        properties["to"],
        json!({"type": "array", "items": {"type": "string", "format": "email"}, "uniqueItems": true})
    );
    assert_eq!(
        properties["axes"],
        json!({
            "type": "array",
            "items": {"type": "string", "enum": ["x", "y", "z"]},
            "minItems": 2,
            "maxItems": 2,
        })
    );
    assert_eq!(
        properties["choices"],
        json!({"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255, "enum": [1, 2, 3]}})
    );
    assert_eq!(
        properties["scales"],
        json!({"type": "array", "items": {"type": "number", "maximum": 1.5, "enum": [0.5, 1.5]}})
    );
    assert_eq!(
        schema["required"],
        json!([
            "level", "ticket", "root", "weight", "exact", "keywords", "pages", "tags", "to",
            "axes", "scales"
        ])
    );

    let valid = json!({
        "level": 10, "ratio": 1.0, "ticket": "ABC-123", "root": "/srv", "weight": 0.5,
        "exact": false, "keywords": [], "fast": true, "pages": [1, 500], "tags": ["ab", "cd"],
        "to": ["a@example.com"], "axes": ["x", "z"], "scales": [0.5],
    });
    let search = Search::parse(&valid).unwrap();
    assert_eq!(search.level, 10);
    assert_eq!(search.ratio, Some(1.0));
    assert_eq!(search.mode, "fast");
    assert_eq!(search.fast, Some(true));
    assert_eq!(search.axes, ["x".to_owned(), "z".to_owned()]);
    assert_eq!(search.choices, None);
    assert_eq!(Search::parse(&search.to_json()).unwrap(), search);

    let invalid = json!({
        "level": 4, "ratio": 2, "mode": "quick", "ticket": "abc-1", "root": "srv", "weight": 0.5,
        "exact": false, "keywords": [], "pages": [0, 501], "tags": ["a", "b1"],
        "to": ["nobody"], "axes": ["x", "w"], "choices": [4], "scales": [1.0],
    });
    assert_eq!(
        Search::parse(&invalid).unwrap_err().to_string(),
        "level: expected one of 1, 5, 10, got 4\n\
         ratio: expected one of 0.5, 1, 1.5, got 2\n\
         mode: expected one of \"fast\", \"thorough\", got \"quick\"\n\
         ticket: expected a string matching \"^[A-Z]{3}-\\\\d+$\", got \"abc-1\"\n\
         root: expected a string matching \"^/\", got \"srv\"\n\
         pages[0]: expected integer >= 1, got 0\n\
         pages[1]: expected integer <= 500, got 501\n\
         tags[0]: expected string of at least 2 characters, got 1\n\
         tags[1]: expected a string matching \"^[a-z]+$\", got \"b1\"\n\
         to[0]: expected email string such as \"someone@example.com\", got \"nobody\"\n\
         axes[1]: expected one of \"x\", \"y\", \"z\", got \"w\"\n\
         choices[0]: expected one of 1, 2, 3, got 4\n\
         scales[0]: expected one of 0.5, 1.5, got 1.0"
    );

    let formats = Formats::json_schema();
    let names = [
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
        "uri",
    ];
    let fields: Vec<&String> = formats["properties"].as_object().unwrap().keys().collect();
    for (field, name) in fields.iter().zip(names) {
        assert_eq!(
            formats["properties"][field.as_str()],
            json!({"type": "string", "format": name}),
            "{field}"
        );
    }
    let good = json!({
        "at": "2026-11-30T16:43:18Z", "day": "2026-11-30", "time": "16:43:18+01:00",
        "lasting": "P1DT2H", "email": "someone@example.com", "host": "api.example.com",
        "v4": "192.0.2.1", "v6": "2001:db8::1", "id": "123e4567-e89b-12d3-a456-426614174000",
        "link": "https://example.com/a?b#c",
    });
    assert!(Formats::parse(&good).is_ok());
    let bad: Value = good
        .as_object()
        .unwrap()
        .keys()
        .map(|key| (key.clone(), json!("not valid")))
        .collect::<serde_json::Map<_, _>>()
        .into();
    let error = Formats::parse(&bad).unwrap_err().to_string();
    assert_eq!(error.lines().count(), 10, "{error}");
    assert!(error.starts_with(
        "at: expected date-time string such as \"2026-11-30T16:43:18Z\", got \"not valid\"\n"
    ));
}
