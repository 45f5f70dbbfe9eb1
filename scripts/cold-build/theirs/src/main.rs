//! The same parameters with serde, schemars and jsonschema: the schema
//! from schemars, the arguments checked against it, then deserialized.

use schemars::JsonSchema;
use serde::Deserialize;

/// Search the docs
#[derive(Deserialize, JsonSchema, Debug)]
#[allow(dead_code)] // read only by Debug
#[serde(deny_unknown_fields)]
struct Search {
    /// What to look for
    #[schemars(length(min = 1, max = 100))]
    query: String,
    /// How many results
    #[schemars(range(min = 1, max = 20))]
    limit: Option<u32>,
}

fn main() {
    let arguments = serde_json::json!({"query": "tool calling", "limit": 5});
    let schema = serde_json::to_value(schemars::schema_for!(Search)).unwrap();
    println!("{schema}");
    let validator = jsonschema::validator_for(&schema).unwrap();
    if validator.is_valid(&arguments) {
        println!("{:?}", serde_json::from_value::<Search>(arguments));
    }
}
