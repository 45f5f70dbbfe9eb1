//! An untagged enum, `#[param(untagged)]`: the data alone, the first
//! variant that parses wins. Unit (`null`), newtype, tuple and struct
//! variants as a field; struct and newtype-of-struct variants as a tool's
//! whole parameters.
use serde_json::{Value, json};
use tool_core::{ToolParams, params::ParamValue};

/// How many results.
#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged)]
enum Limit {
    #[param(description = "No limit")]
    Unlimited,
    Count(u32),
    Range(u32, u32),
    Window {
        start: u32,
        length: u32,
    },
}

#[derive(ToolParams, Debug, PartialEq)]
struct Query {
    limit: Limit,
}

#[derive(ToolParams, Debug, PartialEq)]
struct ById {
    id: u64,
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(untagged, deny_unknown_fields)]
enum Lookup {
    ByName { name: String },
    ById(ById),
}

/// The program's own assertions (a test of `tests/pass.rs`).
pub fn main() {
    let u32_schema = json!({"type": "integer", "minimum": 0, "maximum": 4294967295u32});
    assert_eq!(
        Query::json_schema()["properties"]["limit"],
        json!({
            "description": "How many results.",
            "anyOf": [
                {"description": "No limit", "type": "null"},
                u32_schema,
                {"type": "array", "prefixItems": [u32_schema, u32_schema], "items": false, "minItems": 2},
                {
                    "type": "object",
                    "properties": {"start": u32_schema, "length": u32_schema},
                    "required": ["start", "length"],
                    "additionalProperties": false,
                },
            ],
        })
    );
    let cases = [
        (json!(null), Limit::Unlimited),
        (json!(10), Limit::Count(10)),
        (json!([1, 5]), Limit::Range(1, 5)),
        (
            json!({"start": 2, "length": 3}),
            Limit::Window {
                start: 2,
                length: 3,
            },
        ),
    ];
    for (value, expected) in &cases {
        let query = Query::parse(&json!({"limit": value})).unwrap();
        assert_eq!(&query.limit, expected);
        assert_eq!(&query.limit.to_json(), value);
    }
    let error = |value: Value| {
        Query::parse(&json!({"limit": value}))
            .unwrap_err()
            .to_string()
    };
    // No variant fits: the problems of the closest one are reported.
    assert_eq!(
        error(json!({"start": 2})),
        "limit: matches none of the variants \"Unlimited\", \"Count\", \"Range\", \"Window\" (tried in order); the closest, \"Window\", has these problems:\n\
         limit.length: missing required field"
    );

    // Every variant is an object: the enum can be a tool's whole arguments.
    assert_eq!(
        Lookup::json_schema(),
        json!({
            "type": "object",
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                    "additionalProperties": false,
                },
                {
                    "type": "object",
                    "properties": {"id": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615u64}},
                    "required": ["id"],
                    "additionalProperties": false,
                },
            ],
        })
    );
    assert_eq!(
        Lookup::parse(&json!({"name": "a"})).unwrap(),
        Lookup::ByName { name: "a".into() }
    );
    assert_eq!(
        Lookup::parse(&json!({"id": 7})).unwrap(),
        Lookup::ById(ById { id: 7 })
    );
    assert_eq!(Lookup::ById(ById { id: 7 }).to_json(), json!({"id": 7}));
    // deny_unknown_fields: a struct variant refuses a key it does not
    // declare, so the next variant is tried.
    assert_eq!(
        Lookup::parse(&json!({"name": "a", "nmae": 1}))
            .unwrap_err()
            .to_string(),
        "arguments: matches none of the variants \"ByName\", \"ById\" (tried in order); the closest, \"ByName\", has these problems:\n\
         nmae: unknown field (did you mean \"name\"?)"
    );
}
