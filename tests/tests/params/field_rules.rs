//! The field attributes beyond names, defaults and bounds: value lists,
//! patterns, formats, `items(...)`, `flatten`, `skip`, `example`,
//! `deprecated`, and generic parameter structs: the schema each writes and
//! the check parse makes.

use crate::support::errors;
use serde_json::json;
use tool_core::{ToolParams, params::ParamValue};

#[derive(ToolParams, Debug, PartialEq)]
struct Review {
    #[param(one_of = [1, 3, 5])]
    stars: u8,
    #[param(one_of = ["low", "high"])]
    level: String,
    #[param(one_of = [0.5, 1])]
    scale: Option<f64>,
}

#[test]
fn value_lists_are_an_enum_in_the_schema_and_a_membership_check() {
    let schema = Review::json_schema();
    assert_eq!(
        schema["properties"]["stars"],
        json!({"type": "integer", "minimum": 0, "maximum": 255, "enum": [1, 3, 5]})
    );
    assert_eq!(
        schema["properties"]["level"],
        json!({"type": "string", "enum": ["low", "high"]})
    );
    assert_eq!(schema["properties"]["scale"]["enum"], json!([0.5, 1]));
    assert_eq!(
        errors::<Review>(json!({"stars": 2, "level": "hihg", "scale": 2})),
        "stars: expected one of 1, 3, 5, got 2\n\
         level: expected one of \"low\", \"high\", got \"hihg\": did you mean \"high\"?\n\
         scale: expected one of 0.5, 1, got 2"
    );
    let review = Review::parse(&json!({"stars": 5.0, "level": "low", "scale": 1.0})).unwrap();
    assert_eq!((review.stars, review.scale), (5, Some(1.0)));
}

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct Branch {
    #[param(pattern = "^[a-z0-9-]+$")]
    name: String,
    #[param(pattern = r"\d")]
    contains_digit: Option<String>,
    #[param(format = "date-time")]
    when: String,
    #[param(format = "email")]
    owner: Option<String>,
}

#[test]
fn patterns_and_formats_are_checked_as_json_schema_reads_them() {
    let schema = Branch::json_schema();
    assert_eq!(
        schema["properties"]["name"],
        json!({"type": "string", "pattern": "^[a-z0-9-]+$"})
    );
    assert_eq!(
        schema["properties"]["when"],
        json!({"type": "string", "format": "date-time"})
    );
    // Unanchored: found anywhere.
    assert!(
        Branch::parse(
            &json!({"name": "main", "contains_digit": "v2 beta", "when": "2026-11-30T16:43:18Z"})
        )
        .is_ok()
    );
    assert_eq!(
        errors::<Branch>(
            json!({"name": "Feature/X", "contains_digit": "two", "when": "yesterday", "owner": "me"})
        ),
        "name: expected a string matching \"^[a-z0-9-]+$\", got \"Feature/X\"\n\
         contains_digit: expected a string matching \"\\\\d\", got \"two\"\n\
         when: expected date-time string such as \"2026-11-30T16:43:18Z\", got \"yesterday\"\n\
         owner: expected email string such as \"someone@example.com\", got \"me\""
    );
}

#[derive(ToolParams, Debug)]
#[allow(dead_code)]
struct EcmaClasses {
    #[param(pattern = "^[^]*$")]
    anything: String,
    #[param(pattern = "^(?:yes|no[])$")]
    answer: String,
}

#[test]
fn any_and_no_character_classes_are_read_as_ecma_262_reads_them() {
    // `[^]` is any character, line terminators too; `[]` matches nothing.
    assert!(EcmaClasses::parse(&json!({"anything": "a\nb\u{2028}", "answer": "yes"})).is_ok());
    assert_eq!(
        errors::<EcmaClasses>(json!({"anything": "", "answer": "no"})),
        "answer: expected a string matching \"^(?:yes|no[])$\", got \"no\""
    );
    // The `jsonschema` crate (0.61) refuses both, its translation to the
    // regex crate does not take them, and the derive's reference says so:
    // when this starts to fail, that sentence is out of date.
    let refused = jsonschema::validator_for(&EcmaClasses::json_schema())
        .err()
        .map(|error| error.to_string());
    assert_eq!(refused.as_deref(), Some(r#""^[^]*$" is not a "regex""#));
}

#[derive(ToolParams, Debug, PartialEq)]
struct Lists {
    #[param(items(description = "A digit", min = 0, max = 9), max_length = 3)]
    digits: Vec<u8>,
    #[param(items(pattern = "^[a-z]+$", max_length = 4))]
    words: std::collections::BTreeSet<String>,
    #[param(items(format = "uuid"))]
    ids: Option<Vec<String>>,
    #[param(items(one_of = ["x", "y"]))]
    axes: Vec<Option<String>>,
}

#[test]
fn items_constrains_each_element() {
    let schema = Lists::json_schema();
    assert_eq!(
        schema["properties"]["digits"],
        json!({"type": "array", "items": {"description": "A digit", "type": "integer", "minimum": 0, "maximum": 9}, "maxItems": 3})
    );
    assert_eq!(
        schema["properties"]["axes"]["items"],
        json!({"anyOf": [{"type": "string", "enum": ["x", "y"]}, {"type": "null"}]})
    );
    assert_eq!(
        errors::<Lists>(
            json!({"digits": [1, 12], "words": ["ok", "NO", "toolong"], "ids": ["x"], "axes": [null, "z"]})
        ),
        "digits[1]: expected integer <= 9, got 12\n\
         words[1]: expected a string matching \"^[a-z]+$\", got \"NO\"\n\
         words[2]: expected string of at most 4 characters, got 7\n\
         ids[0]: expected uuid string such as \"123e4567-e89b-12d3-a456-426614174000\", got \"x\"\n\
         axes[1]: expected one of \"x\", \"y\", got \"z\""
    );
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "camelCase")]
struct Paging {
    page_size: u8,
    // optional (has a default)
    #[param(default = 1)]
    page: u32,
}

#[derive(ToolParams, Debug, PartialEq)]
#[param(deny_unknown_fields)]
struct Search {
    query: String,
    #[param(flatten)]
    paging: Paging,
    #[param(skip)]
    calls: u32,
    #[param(skip, default = "en".to_string())]
    language: String,
}

#[test]
fn flatten_merges_a_struct_and_skip_hides_a_field() {
    let schema = Search::json_schema();
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "pageSize": {"type": "integer", "minimum": 0, "maximum": 255},
                "page": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "default": 1},
            },
            "required": ["query", "pageSize"],
            "additionalProperties": false,
        })
    );
    let search = Search::parse(&json!({"query": "q", "pageSize": 10})).unwrap();
    assert_eq!(
        search.paging,
        Paging {
            page_size: 10,
            page: 1
        }
    );
    assert_eq!((search.calls, search.language.as_str()), (0, "en"));
    assert_eq!(
        search.to_json(),
        json!({"query": "q", "pageSize": 10, "page": 1})
    );
    // A skipped field is not read: with deny_unknown_fields, it is unknown.
    assert_eq!(
        errors::<Search>(json!({"query": "q", "pageSize": 1, "calls": 3, "pagesize": 2})),
        "calls: unknown field (expected one of: query, pageSize, page)\n\
         pagesize: unknown field (did you mean \"pageSize\"?)"
    );
    assert_eq!(
        errors::<Search>(json!({"query": "q"})),
        "pageSize: missing required field"
    );
}

#[derive(ToolParams, Debug)]
#[allow(dead_code, deprecated)]
struct Annotated {
    #[param(example = "rust", example = "serde")]
    topic: String,
    #[param(example = 10)]
    limit: Option<u32>,
    #[param(example = vec!["a".to_string()])]
    tags: Vec<String>,
    #[deprecated]
    #[param(default)]
    legacy: bool,
    #[param(deprecated)]
    old: Option<String>,
}

#[test]
fn examples_and_deprecation_are_written_for_the_model() {
    let schema = Annotated::json_schema();
    assert_eq!(
        schema["properties"]["topic"]["examples"],
        json!(["rust", "serde"])
    );
    assert_eq!(schema["properties"]["limit"]["examples"], json!([10]));
    assert_eq!(schema["properties"]["tags"]["examples"], json!([["a"]]));
    assert_eq!(schema["properties"]["legacy"]["deprecated"], json!(true));
    assert_eq!(schema["properties"]["old"]["deprecated"], json!(true));
    // Deprecated fields are still read.
    assert!(Annotated::parse(&json!({"topic": "t", "tags": [], "old": "x"})).is_ok());
}

#[derive(ToolParams, Debug, PartialEq)]
struct Page<T> {
    #[param(max_length = 2)]
    items: Vec<T>,
    next: Option<String>,
}

#[test]
fn generic_parameter_structs_work() {
    let numbers = Page::<u8>::parse(&json!({"items": [1, 2]})).unwrap();
    assert_eq!(numbers.items, vec![1, 2]);
    let names = Page::<String>::parse(&json!({"items": ["a"], "next": "n"})).unwrap();
    assert_eq!(names.next.as_deref(), Some("n"));
    assert_eq!(
        Page::<bool>::json_schema()["properties"]["items"],
        json!({"type": "array", "items": {"type": "boolean"}, "maxItems": 2})
    );
    assert_eq!(
        errors::<Page<u8>>(json!({"items": [1, 2, 300]})),
        "items[2]: expected integer <= 255, got 300"
    );
}
