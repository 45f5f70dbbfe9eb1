use super::*;
use serde_json::json;

fn check(schema: Value, arguments: Value) -> String {
    let check = SchemaCheck::new(&schema).unwrap();
    check
        .check(&arguments)
        .map_or_else(|error| error.to_string(), |()| String::new())
}

#[test]
fn reports_every_problem_at_its_path_in_the_derived_words() {
    let schema = json!({
        "type": "object",
        "properties": {
            "limit": {"type": "integer", "minimum": 1},
            "items": {"type": "array", "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
            }},
            "mode": {"enum": ["quick", "slow"]},
        },
        "required": ["limit"],
        "additionalProperties": false,
    });
    assert_eq!(
        check(
            schema.clone(),
            json!({"items": [{"name": "a"}, {}, {"name": 3}], "mode": "fast", "x": 1})
        ),
        "items[1].name: missing required field\n\
         items[2].name: expected string, got number 3\n\
         mode: expected one of \"quick\", \"slow\", got \"fast\"\n\
         x: unknown field\n\
         limit: missing required field"
    );
    assert_eq!(
        check(schema.clone(), json!({"limit": "3"})),
        "limit: expected integer, got string \"3\""
    );
    assert_eq!(
        check(schema.clone(), json!({"limit": 0})),
        "limit: expected integer >= 1, got 0"
    );
    assert_eq!(check(schema, json!({"limit": 1})), "");
}

#[test]
fn lengths_patterns_and_the_rarer_keywords_have_words_too() {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"},
            "tags": {"type": "array", "maxItems": 1, "uniqueItems": true},
            "step": {"type": "number", "multipleOf": 0.5},
            "kind": {"const": "file"},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        },
    });
    assert_eq!(
        check(
            schema,
            json!({"name": "A", "tags": ["x", "x"], "step": 0.3, "kind": "dir", "either": true})
        ),
        "name: expected string of at least 2 characters, got 1\n\
         name: expected a string matching \"^[a-z]+$\", got \"A\"\n\
         tags: expected array of at most 1 item, got 2\n\
         tags: expected items that all differ\n\
         step: expected a multiple of 0.5, got 0.3\n\
         kind: expected \"file\", got \"dir\"\n\
         either: expected a value matching one of the alternatives, got true"
    );
}

#[test]
fn keys_that_look_like_numbers_stay_fields_of_objects() {
    let schema = json!({"type": "object", "additionalProperties": {"type": "string"}});
    assert_eq!(
        check(schema, json!({"2": 1})),
        "2: expected string, got number 1"
    );
}

#[test]
fn a_huge_value_is_echoed_in_an_excerpt() {
    let schema = json!({"type": "object", "properties": {"s": {"maxLength": 3, "pattern": "^a$"}}});
    let huge = "b".repeat(1 << 20);
    let message = check(schema, json!({ "s": huge }));
    assert!(message.len() < 400, "{} bytes", message.len());
    assert!(message.starts_with("s: expected string of at most 3 characters, got 1048576\n"));
}

#[test]
fn many_problems_are_counted_past_the_cap() {
    let schema = json!({"type": "array", "items": {"type": "integer"}});
    let message = check(schema, json!(vec!["x"; 1000]));
    assert_eq!(message.lines().count(), crate::params::MAX_PROBLEMS + 1);
    assert!(message.ends_with("... and 980 more problems"), "{message}");
}

#[test]
fn references_inside_the_schema_resolve_and_recursion_is_bounded_by_the_value() {
    let schema = json!({
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "n": {"type": "integer"}}}},
        "$ref": "#/$defs/node",
    });
    let mut deep = json!({"n": "x"});
    for _ in 0..(crate::params::MAX_JSON_DEPTH - 1) {
        deep = json!({ "next": deep });
    }
    // On a small stack, as a tokio worker thread's is (2 MiB).
    let message = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || check(schema, deep))
        .unwrap()
        .join()
        .unwrap();
    assert!(
        message.ends_with(".n: expected integer, got string \"x\""),
        "{message}"
    );
}

#[test]
fn schemas_that_do_not_compile_are_refused_with_where() {
    let error = SchemaCheck::new(&json!({"type": "object", "properties": {"a": {"type": 12}}}))
        .unwrap_err();
    assert!(
        error.message().ends_with("(at /properties/a/type)"),
        "{error}"
    );
    assert!(error.to_string().starts_with("not valid JSON Schema: "));
    // A reference that does not resolve inside the schema: nothing is fetched.
    assert!(SchemaCheck::new(&json!({"$ref": "https://example.invalid/s.json"})).is_err());
    assert!(SchemaCheck::new(&json!({"$ref": "#/$defs/missing"})).is_err());
}
