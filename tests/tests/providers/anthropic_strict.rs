//! Anthropic's strict tool use (`anthropic-strict`,
//! `anthropic::tools(definitions, Strict::On)`): the exact schema and
//! diagnostics for derived structs and root enums, what cannot be strict
//! (a map, a value of any type, a recursive type) and the request's limits
//! (20 strict tools, 24 optional and 16 union-typed parameters), patterns
//! and `minItems`, every test struct of `tests/src/everything.rs`, and a
//! walk that fails on any keyword outside the documented subset.
//!
//! The subset, from "JSON Schema limitations" and "Schema complexity
//! limits" in
//! <https://platform.claude.com/docs/en/build-with-claude/structured-outputs>
//! (cited in `tool-core/src/providers/anthropic/strict.rs`): every basic
//! type, `enum` of scalars, `const`, `anyOf`, `allOf` (not with `$ref`),
//! local `$ref`/`$defs`, `default`, `required`, `additionalProperties:
//! false` on every object, ten string formats, `minItems` 0 or 1, `pattern`
//! without backreferences, lookaround or word boundaries; no recursion.

use crate::definitions::{CountsParams, ForecastParams, PayloadParams};
use crate::support::schema_walk::each_subschema;
use crate::support::validator_for;
use serde_json::{Value, json};
use std::net::IpAddr;
use tests::everything;
use tests::wire::assert_json;
use tests::wire::{definition, diagnostics};
use tool_core::providers::{Converted, ProviderFormat, Strict, anthropic};
use tool_core::{ToolDefinition, ToolParams};

// ---------------------------------------------------------------------------
// The parameter types under test
// ---------------------------------------------------------------------------

// The forecast, counts and payload parameters are definitions.rs's.

/// A tree of labels
#[derive(ToolParams, Debug)]
struct Tree {
    label: String,
    children: Vec<Tree>,
}

// Arrays with lengths: `minItems` above 1 is written as 1.
#[derive(ToolParams, Debug)]
struct Lists {
    #[param(min_length = 3, max_length = 5)]
    names: Vec<String>,
    #[param(min_length = 1)]
    some: Vec<u8>,
    rgb: [u8; 3],
    pair: (bool, String),
}

#[derive(ToolParams, Debug)]
#[param(rename_all = "snake_case")]
enum Shape {
    /// A circle
    Circle { radius: u32 },
    /// A square's side
    Square(u32),
}

#[derive(ToolParams, Debug)]
#[param(untagged)]
enum Target {
    Coordinates { x: u32, y: u32 },
    Label { label: String },
}

// Two optional fields.
#[derive(ToolParams, Debug)]
struct TwoOptional {
    a: Option<bool>,
    b: Option<bool>,
}

// Nine schemas with a union type each (`IpAddr`: `anyOf` of two formats).
#[derive(ToolParams, Debug)]
struct NineHosts {
    h1: IpAddr,
    h2: IpAddr,
    h3: IpAddr,
    h4: IpAddr,
    h5: IpAddr,
    h6: IpAddr,
    h7: IpAddr,
    h8: IpAddr,
    h9: IpAddr,
}

#[derive(ToolParams, Debug)]
struct Flag {
    on: bool,
}

const STRICT: ProviderFormat = ProviderFormat::Anthropic(Strict::On);

fn dropped(keyword: &str) -> String {
    format!("dropped: strict mode does not accept `{keyword}` (parse still enforces it)")
}

/// The diagnostic for `words` written into a node's description: what
/// strict mode dropped there, said to the model.
fn said(words: &str) -> String {
    format!("changed: says what strict mode dropped, for the model: \"{words}\"")
}

const NOT_STRICT_UNCHANGED: &str = "sent without \"strict\" and its schema unchanged: the schema cannot be strict (see the other diagnostics)";

/// The diagnostics of a conversion, owned, for comparing with built ones.
fn owned(converted: &Converted) -> Vec<(String, String, String)> {
    diagnostics(converted)
        .into_iter()
        .map(|(tool, path, message)| (tool.to_owned(), path.to_owned(), message.to_owned()))
        .collect()
}

fn expect(tool: &str, path: &str, message: &str) -> (String, String, String) {
    (tool.to_owned(), path.to_owned(), message.to_owned())
}

/// Whether each tool was sent strict: `"strict": true`, or no `strict`.
fn strict_flags(converted: &Converted) -> Vec<bool> {
    converted
        .value
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| match tool.get("strict") {
            Some(Value::Bool(true)) => true,
            None => false,
            other => panic!("`strict` is written as true or not at all, not {other:?}"),
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The strict form
// ---------------------------------------------------------------------------

#[test]
fn a_struct_in_anthropic_strict() {
    let tools = vec![definition(
        "forecast",
        "Forecast the weather",
        ForecastParams::json_schema(),
    )];
    let converted = anthropic::tools(&tools, Strict::On);
    assert_eq!(STRICT.definitions(&tools), converted);
    // Optional properties stay optional (`days`, `retries`, `zip`): no
    // nullable rewrite; bounds and lengths go, said in the description
    // (a `u8`'s own range too); `default` stays, so it is not said.
    assert_json(
        &converted.value,
        &json!([{
            "name": "forecast",
            "description": "Forecast the weather",
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": {"description": "What to look for", "type": "string"},
                    "days": {"type": "integer", "description": "From 1 to 255."},
                    "label": {"type": "string", "description": "At most 10 characters."},
                    "retries": {"type": "integer", "default": 3, "description": "From 0 to 255."},
                    "place": {
                        "description": "Where to look",
                        "type": "object",
                        "properties": {
                            "city": {"description": "City name", "type": "string"},
                            "zip": {"type": "string"},
                        },
                        "required": ["city"],
                        "additionalProperties": false,
                    },
                    "readings": {
                        "type": "array",
                        "items": {"anyOf": [
                            {"type": "integer", "description": "From 0 to 255."},
                            {"type": "null"},
                        ]},
                    },
                    "unit": {
                        "description": "Temperature unit",
                        "type": "string",
                        "enum": ["celsius", "fahrenheit"],
                    },
                },
                "required": ["query", "label", "place", "readings", "unit"],
                "additionalProperties": false,
            },
            "strict": true,
        }]),
    );
    assert_eq!(
        owned(&converted),
        vec![
            expect("forecast", "/properties/days/minimum", &dropped("minimum")),
            expect("forecast", "/properties/days/maximum", &dropped("maximum")),
            expect(
                "forecast",
                "/properties/days/description",
                &said("From 1 to 255.")
            ),
            expect(
                "forecast",
                "/properties/label/maxLength",
                &dropped("maxLength")
            ),
            expect(
                "forecast",
                "/properties/label/description",
                &said("At most 10 characters.")
            ),
            expect(
                "forecast",
                "/properties/retries/minimum",
                &dropped("minimum")
            ),
            expect(
                "forecast",
                "/properties/retries/maximum",
                &dropped("maximum")
            ),
            expect(
                "forecast",
                "/properties/retries/description",
                &said("From 0 to 255.")
            ),
            expect(
                "forecast",
                "/properties/readings/items/anyOf/0/minimum",
                &dropped("minimum")
            ),
            expect(
                "forecast",
                "/properties/readings/items/anyOf/0/maximum",
                &dropped("maximum")
            ),
            expect(
                "forecast",
                "/properties/readings/items/anyOf/0/description",
                &said("From 0 to 255.")
            ),
        ]
    );
    // Non-strict Anthropic keeps the derived schema, and writes no `strict`.
    let plain = anthropic::tools(&tools, Strict::Off);
    assert_eq!(
        plain.value[0]["input_schema"],
        ForecastParams::json_schema()
    );
    assert_eq!(plain.value[0].get("strict"), None);
    assert!(plain.diagnostics.is_empty());
}

#[test]
fn array_lengths_tuples_and_min_items() {
    let tools = vec![definition("lists", "Lists", Lists::json_schema())];
    let converted = anthropic::tools(&tools, Strict::On);
    assert_eq!(strict_flags(&converted), [true]);
    assert_json(
        &converted.value[0]["input_schema"]["properties"],
        &json!({
            "names": {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 1,
                "description": "3 to 5 items.",
            },
            "some": {
                "type": "array",
                "items": {"type": "integer", "description": "From 0 to 255."},
                "minItems": 1,
            },
            "rgb": {
                "type": "array",
                "items": {"type": "integer", "description": "From 0 to 255."},
                "minItems": 1,
                "description": "Exactly 3 items.",
            },
            "pair": {
                "type": "array",
                "items": {"anyOf": [{"type": "boolean"}, {"type": "string"}]},
                "minItems": 1,
                "description": "Exactly 2 items.",
            },
        }),
    );
    let min_items = |from: u64| {
        format!(
            "changed: `minItems` {from} written as 1 (strict mode accepts 1 at most; parse still enforces {from})"
        )
    };
    assert_eq!(
        owned(&converted),
        vec![
            expect("lists", "/properties/names/minItems", &min_items(3)),
            expect("lists", "/properties/names/maxItems", &dropped("maxItems")),
            expect(
                "lists",
                "/properties/names/description",
                &said("3 to 5 items.")
            ),
            expect(
                "lists",
                "/properties/some/items/minimum",
                &dropped("minimum")
            ),
            expect(
                "lists",
                "/properties/some/items/maximum",
                &dropped("maximum")
            ),
            expect(
                "lists",
                "/properties/some/items/description",
                &said("From 0 to 255.")
            ),
            expect(
                "lists",
                "/properties/rgb/items/minimum",
                &dropped("minimum")
            ),
            expect(
                "lists",
                "/properties/rgb/items/maximum",
                &dropped("maximum")
            ),
            expect(
                "lists",
                "/properties/rgb/items/description",
                &said("From 0 to 255.")
            ),
            expect("lists", "/properties/rgb/minItems", &min_items(3)),
            expect("lists", "/properties/rgb/maxItems", &dropped("maxItems")),
            expect(
                "lists",
                "/properties/rgb/description",
                &said("Exactly 3 items.")
            ),
            expect(
                "lists",
                "/properties/pair/prefixItems",
                "changed: a tuple of 2 items written as an array of exactly 2 items, each any of the tuple's item schemas (strict mode does not accept `prefixItems`; parse still enforces each position's own)"
            ),
            expect("lists", "/properties/pair/minItems", &min_items(2)),
            expect("lists", "/properties/pair/maxItems", &dropped("maxItems")),
            expect(
                "lists",
                "/properties/pair/description",
                &said("Exactly 2 items.")
            ),
        ]
    );
}

/// Patterns: the documented regex subset is kept; a backreference, a
/// lookahead or lookbehind, or a word boundary is refused by the API with
/// HTTP 400, so the pattern is dropped (parse still enforces it) and said
/// in the description. A hand-written schema, as a `DynamicTool` may carry
/// one.
#[test]
fn patterns_outside_the_regex_subset_are_dropped() {
    let tools = vec![definition(
        "match",
        "Match text",
        json!({
            "type": "object",
            "properties": {
                "plain": {"type": "string", "pattern": "^[a-z]+\\d{2,3}$"},
                "boundary": {"type": "string", "pattern": "\\bcat\\b"},
                "repeat": {"type": "string", "pattern": "^(a+)-\\1$"},
                "ahead": {"type": "string", "pattern": "^(?=.*\\d)(?<!x)[a-z0-9]+$"},
            },
            "required": ["plain", "boundary", "repeat", "ahead"],
            "additionalProperties": false,
        }),
    )];
    let converted = anthropic::tools(&tools, Strict::On);
    assert_eq!(strict_flags(&converted), [true]);
    let properties = &converted.value[0]["input_schema"]["properties"];
    assert_eq!(
        properties["plain"],
        json!({"type": "string", "pattern": "^[a-z]+\\d{2,3}$"})
    );
    // A dropped pattern is said to the model in the description.
    for (name, pattern) in [
        ("boundary", "\\bcat\\b"),
        ("repeat", "^(a+)-\\1$"),
        ("ahead", "^(?=.*\\d)(?<!x)[a-z0-9]+$"),
    ] {
        assert_json(
            &properties[name],
            &json!({
                "type": "string",
                "description": format!("Matches the regular expression /{pattern}/."),
            }),
        );
    }
    assert_eq!(
        owned(&converted),
        vec![
            expect(
                "match",
                "/properties/boundary/pattern",
                "dropped: strict mode does not accept a pattern with a word boundary (parse still enforces it)"
            ),
            expect(
                "match",
                "/properties/boundary/description",
                &said("Matches the regular expression /\\bcat\\b/.")
            ),
            expect(
                "match",
                "/properties/repeat/pattern",
                "dropped: strict mode does not accept a pattern with a backreference (parse still enforces it)"
            ),
            expect(
                "match",
                "/properties/repeat/description",
                &said("Matches the regular expression /^(a+)-\\1$/.")
            ),
            expect(
                "match",
                "/properties/ahead/pattern",
                "dropped: strict mode does not accept a pattern with a lookahead or a lookbehind (parse still enforces it)"
            ),
            expect(
                "match",
                "/properties/ahead/description",
                &said("Matches the regular expression /^(?=.*\\d)(?<!x)[a-z0-9]+$/.")
            ),
        ]
    );
}

/// Formats: all ten documented ones are kept (`uri` too, unlike OpenAI's
/// strict mode); another is dropped, and said in the description.
#[test]
fn formats_outside_the_list_are_dropped() {
    let formats = [
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    let mut properties = serde_json::Map::new();
    for format in formats.iter().chain(&["iri"]) {
        properties.insert(
            (*format).to_owned(),
            json!({"type": "string", "format": format}),
        );
    }
    let names: Vec<&str> = formats.iter().copied().chain(["iri"]).collect();
    let tools = vec![definition(
        "formats",
        "Formats",
        json!({"type": "object", "properties": properties, "required": names, "additionalProperties": false}),
    )];
    let converted = anthropic::tools(&tools, Strict::On);
    let written = &converted.value[0]["input_schema"]["properties"];
    for format in formats {
        assert_eq!(written[format]["format"], format);
    }
    // The dropped format is said to the model in the description.
    assert_json(
        &written["iri"],
        &json!({"type": "string", "description": "Format: iri."}),
    );
    assert_eq!(
        owned(&converted),
        vec![
            expect(
                "formats",
                "/properties/iri/format",
                "dropped: strict mode does not accept the format \"iri\" (only date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid) (parse still enforces it)"
            ),
            expect(
                "formats",
                "/properties/iri/description",
                &said("Format: iri.")
            ),
        ]
    );
}

// ---------------------------------------------------------------------------
// What cannot be strict
// ---------------------------------------------------------------------------

#[test]
fn a_map_a_value_of_any_type_and_recursion_are_sent_without_strict() {
    let tools = vec![
        definition("count", "Count things", CountsParams::json_schema()),
        definition("store", "Store a value", PayloadParams::json_schema()),
        definition("grow", "Grow a tree", Tree::json_schema()),
    ];
    let converted = anthropic::tools(&tools, Strict::On);
    assert_eq!(strict_flags(&converted), [false, false, false]);
    // Sent as non-strict Anthropic writes them: the derived schemas.
    for (tool, written) in tools.iter().zip(converted.value.as_array().unwrap()) {
        assert_eq!(written["input_schema"], tool.parameters, "{}", tool.name);
    }
    let tree_ref = Tree::json_schema()["properties"]["children"]["items"]["$ref"]
        .as_str()
        .unwrap()
        .to_owned();
    let tree_def = format!("/$defs/{}", tree_ref.trim_start_matches("#/$defs/"));
    assert_eq!(
        owned(&converted),
        vec![
            expect(
                "count",
                "/properties/counts/additionalProperties",
                "a map (an object with any keys) cannot be strict: strict mode needs every key listed"
            ),
            expect("count", "", NOT_STRICT_UNCHANGED),
            expect(
                "store",
                "/properties/payload",
                "a value of any type cannot be strict: strict mode needs a type for every value"
            ),
            expect("store", "", NOT_STRICT_UNCHANGED),
            expect(
                "grow",
                &tree_def,
                "a recursive type cannot be strict: strict mode does not accept recursive schemas"
            ),
            expect("grow", "", NOT_STRICT_UNCHANGED),
        ]
    );
    // OpenAI's strict mode takes the recursion.
    let openai = ProviderFormat::OpenAiChat(Strict::On).definitions(&tools[2..]);
    assert_eq!(openai.value[0]["function"]["strict"], true);
}

/// A shared (not recursive) `$defs` entry is no recursion; a `$ref` to
/// the whole schema is.
#[test]
fn only_a_reference_that_comes_back_is_recursion() {
    let shared = json!({
        "type": "object",
        "properties": {
            "from": {"$ref": "#/$defs/point"},
            "to": {"$ref": "#/$defs/point"},
        },
        "required": ["from", "to"],
        "additionalProperties": false,
        "$defs": {"point": {
            "type": "object",
            "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
            "required": ["x", "y"],
            "additionalProperties": false,
        }},
    });
    let whole = json!({
        "type": "object",
        "properties": {"next": {"$ref": "#"}},
        "additionalProperties": false,
    });
    let tools = vec![
        definition("line", "Draw a line", shared.clone()),
        definition("chain", "Chain", whole),
    ];
    let converted = anthropic::tools(&tools, Strict::On);
    assert_eq!(strict_flags(&converted), [true, false]);
    assert_eq!(converted.value[0]["input_schema"], shared);
    assert_eq!(
        diagnostics(&converted),
        vec![
            (
                "chain",
                "/properties/next",
                "a recursive type cannot be strict: strict mode does not accept recursive schemas"
            ),
            ("chain", "", NOT_STRICT_UNCHANGED),
        ]
    );
}

// ---------------------------------------------------------------------------
// Root enums
// ---------------------------------------------------------------------------

#[test]
fn root_enums_in_anthropic_strict() {
    let tools = vec![
        definition("draw", "Draw a shape", Shape::json_schema()),
        definition("aim", "Aim at a target", Target::json_schema()),
    ];
    let converted = anthropic::tools(&tools, Strict::On);
    // Both strict: optional properties are allowed, so the external enum's
    // keys need not all be sent (OpenAI's strict mode would require each).
    assert_eq!(strict_flags(&converted), [true, true]);
    assert_json(
        &converted.value[0]["input_schema"],
        &json!({
            "type": "object",
            "properties": {
                "circle": {
                    "description": "A circle",
                    "type": "object",
                    "properties": {"radius": {"type": "integer", "description": "At least 0."}},
                    "required": ["radius"],
                    "additionalProperties": false,
                },
                "square": {"description": "A square's side. At least 0.", "type": "integer"},
            },
            "additionalProperties": false,
        }),
    );
    assert_json(
        &converted.value[1]["input_schema"],
        &json!({
            "type": "object",
            "properties": {
                "x": {"type": "integer", "description": "At least 0."},
                "y": {"type": "integer", "description": "At least 0."},
                "label": {"type": "string"},
            },
            "additionalProperties": false,
        }),
    );
    assert_eq!(
        owned(&converted),
        vec![
            expect(
                "draw",
                "/oneOf",
                "changed: a choice of 2 object shapes written as one object: the fields only some choices have are optional, and `minProperties`/`maxProperties` of 1 ask for exactly one of them (parse still enforces each choice's own fields)"
            ),
            expect("draw", "/minProperties", &dropped("minProperties")),
            expect("draw", "/maxProperties", &dropped("maxProperties")),
            expect(
                "draw",
                "/properties/circle/properties/radius/minimum",
                &dropped("minimum")
            ),
            expect(
                "draw",
                "/properties/circle/properties/radius/maximum",
                &dropped("maximum")
            ),
            expect(
                "draw",
                "/properties/circle/properties/radius/description",
                &said("At least 0.")
            ),
            expect("draw", "/properties/square/minimum", &dropped("minimum")),
            expect("draw", "/properties/square/maximum", &dropped("maximum")),
            expect(
                "draw",
                "/properties/square/description",
                &said("At least 0.")
            ),
            expect(
                "aim",
                "/anyOf",
                "changed: a choice of 2 object shapes written as one object: the fields only some choices have are optional (parse still enforces each choice's own fields)"
            ),
            expect("aim", "/properties/x/minimum", &dropped("minimum")),
            expect("aim", "/properties/x/maximum", &dropped("maximum")),
            expect("aim", "/properties/x/description", &said("At least 0.")),
            expect("aim", "/properties/y/minimum", &dropped("minimum")),
            expect("aim", "/properties/y/maximum", &dropped("maximum")),
            expect("aim", "/properties/y/description", &said("At least 0.")),
        ]
    );
    // Parse still takes exactly one key of the external enum.
    assert!(Shape::parse(&json!({"circle": {"radius": 1}, "square": 2})).is_err());
    assert!(Shape::parse(&json!({})).is_err());
    assert!(Shape::parse(&json!({"square": 2})).is_ok());
}

// ---------------------------------------------------------------------------
// The request's limits
// ---------------------------------------------------------------------------

#[test]
fn at_most_twenty_strict_tools_in_a_request() {
    let mut tools: Vec<ToolDefinition> = (0..21)
        .map(|i| definition(&format!("flag_{i}"), "Set a flag", Flag::json_schema()))
        .collect();
    // A tool that cannot be strict takes no place.
    tools.insert(
        3,
        definition("count", "Count things", CountsParams::json_schema()),
    );
    let converted = anthropic::tools(&tools, Strict::On);
    let mut expected = vec![true; 22];
    expected[3] = false;
    expected[21] = false;
    assert_eq!(strict_flags(&converted), expected);
    let last = converted.diagnostics.last().unwrap();
    assert_eq!(
        (
            last.tool.as_str(),
            last.path.as_str(),
            last.message.as_str()
        ),
        (
            "flag_20",
            "",
            "sent without \"strict\" and its schema unchanged: this request's strict tools are at a limit: the request has 20 strict tools before this one, Anthropic's limit (\"Schema complexity limits\")"
        )
    );
    assert_eq!(converted.value[21]["input_schema"], Flag::json_schema());
}

#[test]
fn at_most_twenty_four_optional_parameters_in_a_request() {
    let tools: Vec<ToolDefinition> = (0..13)
        .map(|i| definition(&format!("pick_{i}"), "Pick", TwoOptional::json_schema()))
        .collect();
    let converted = anthropic::tools(&tools, Strict::On);
    let mut expected = vec![true; 13];
    expected[12] = false;
    assert_eq!(strict_flags(&converted), expected);
    assert_eq!(
        diagnostics(&converted),
        vec![(
            "pick_12",
            "",
            "sent without \"strict\" and its schema unchanged: this request's strict tools are at a limit: its 2 optional parameters would bring the request's strict tools to 26, past Anthropic's limit of 24 (\"Schema complexity limits\")"
        )]
    );
}

#[test]
fn at_most_sixteen_union_typed_parameters_in_a_request() {
    let tools = vec![
        definition("first", "Hosts", NineHosts::json_schema()),
        definition("second", "Hosts", NineHosts::json_schema()),
        definition("flag", "Set a flag", Flag::json_schema()),
    ];
    let converted = anthropic::tools(&tools, Strict::On);
    assert_eq!(strict_flags(&converted), [true, false, true]);
    // What the strict form of the second would have changed is not what is
    // sent: only the reason is reported for it.
    let second: Vec<&str> = converted
        .diagnostics
        .iter()
        .filter(|d| d.tool == "second")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        second,
        [
            "sent without \"strict\" and its schema unchanged: this request's strict tools are at a limit: its 9 parameters with union types (`anyOf`, type arrays) would bring the request's strict tools to 18, past Anthropic's limit of 16 (\"Schema complexity limits\")"
        ]
    );
    assert_eq!(converted.value[1]["input_schema"], NineHosts::json_schema());
    let first = converted
        .diagnostics
        .iter()
        .filter(|d| d.tool == "first")
        .count();
    assert_eq!(first, 9, "`type` written into each host's choices");
}

// ---------------------------------------------------------------------------
// Every test struct, and the subset
// ---------------------------------------------------------------------------

/// The definitions of the shared test structs that can be a tool's whole
/// parameters (`Event` and `Query` have choices that are no objects).
fn everything_definitions() -> Vec<ToolDefinition> {
    vec![
        definition("everything", "All", everything::Everything::json_schema()),
        definition("integers", "Ints", everything::Integers::json_schema()),
        definition("non_zeros", "Non-zero", everything::NonZeros::json_schema()),
        definition("inner", "Inner", everything::Inner::json_schema()),
        definition("wait", "Wait", everything::Wait::json_schema()),
        definition("action", "Act", everything::Action::json_schema()),
        definition("shape", "Shape", everything::Shape::json_schema()),
        definition("more", "More", everything::More::json_schema()),
        definition("enums", "Enums", everything::EnumFields::json_schema()),
        definition("strings", "Strings", everything::StringRules::json_schema()),
        definition(
            "collections",
            "Collections",
            everything::Collections::json_schema(),
        ),
        definition("layout", "Layout", everything::Layout::json_schema()),
        definition("page", "Page", everything::Page::<u8>::json_schema()),
    ]
}

/// Each definition alone (the request's limits aside): strict and inside
/// the subset, or sent without `strict` with the reasons given.
#[test]
fn every_test_struct_converts_strict_or_says_why_not() {
    let mut strict = Vec::new();
    let mut not_strict = Vec::new();
    for tool in everything_definitions() {
        let converted = anthropic::tools(std::slice::from_ref(&tool), Strict::On);
        let schema = &converted.value[0]["input_schema"];
        jsonschema::draft202012::meta::validate(schema)
            .unwrap_or_else(|error| panic!("{}: {error}", tool.name));
        if strict_flags(&converted) == [true] {
            assert_eq!(
                subset_violations(schema),
                Vec::<String>::new(),
                "{}: {schema}",
                tool.name
            );
            strict.push(tool.name.clone());
        } else {
            let last = converted.diagnostics.last().unwrap();
            assert_eq!(last.path, "", "{}", tool.name);
            assert!(
                last.message.starts_with("sent without \"strict\""),
                "{}: {}",
                tool.name,
                last.message
            );
            let reasons = converted
                .diagnostics
                .iter()
                .filter(|d| d.message.contains("cannot be strict:"))
                .count();
            assert!(reasons > 0, "{}: no reason given", tool.name);
            not_strict.push(tool.name.clone());
        }
    }
    // Maps and `serde_json::Value` keep these from strict mode; the rest
    // are strict.
    assert_eq!(not_strict, ["everything", "more", "enums"]);
    assert_eq!(strict.len(), 10);
}

/// What Anthropic's strict mode documents, checked on a schema sent
/// strict: every keyword in the subset, every object closed, formats and
/// `minItems` within the lists, `enum` of scalars only, a type (or
/// `anyOf`, `enum`, `const`, a `$ref`) on every schema, patterns without
/// the refused constructs, no `$ref` to the whole schema, and a plain
/// object at the root.
fn subset_violations(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    if schema["type"] != "object" || schema.get("anyOf").is_some() {
        found.push("root: not a plain object".to_owned());
    }
    subset_walk(schema, "", &mut found);
    found
}

fn subset_walk(schema: &Value, path: &str, found: &mut Vec<String>) {
    const ALLOWED: &[&str] = &[
        "type",
        "title",
        "description",
        "enum",
        "const",
        "default",
        "pattern",
        "format",
        "minItems",
        "$ref",
        "$defs",
        "anyOf",
        "properties",
        "required",
        "additionalProperties",
        "items",
    ];
    const FORMATS: &[&str] = &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    const REFUSED_IN_PATTERNS: &[&str] = &["(?=", "(?!", "(?<=", "(?<!", "\\b", "\\B", "\\1"];
    each_subschema(schema, path, &mut |map, path| {
        let Some(map) = map else {
            found.push(format!("{path}: not an object schema"));
            return;
        };
        for key in map.keys() {
            if !ALLOWED.contains(&key.as_str()) {
                found.push(format!("{path}/{key}: not in the subset"));
            }
        }
        let typed = ["type", "anyOf", "$ref", "enum", "const"];
        if !typed.iter().any(|key| map.contains_key(*key)) {
            found.push(format!("{path}: no type"));
        }
        if let Some(format) = map.get("format")
            && !FORMATS.contains(&format.as_str().unwrap_or_default())
        {
            found.push(format!("{path}/format: {format}"));
        }
        if let Some(least) = map.get("minItems")
            && least.as_u64().is_none_or(|least| least > 1)
        {
            found.push(format!("{path}/minItems: {least}"));
        }
        if let Some(values) = map.get("enum")
            && values
                .as_array()
                .is_none_or(|values| values.iter().any(|v| v.is_array() || v.is_object()))
        {
            found.push(format!("{path}/enum: not scalars"));
        }
        if let Some(pattern) = map.get("pattern").and_then(Value::as_str)
            && REFUSED_IN_PATTERNS.iter().any(|bad| pattern.contains(bad))
        {
            found.push(format!("{path}/pattern: {pattern}"));
        }
        if map.get("$ref") == Some(&json!("#")) {
            found.push(format!("{path}/$ref: the whole schema"));
        }
        let is_object = map.get("type") == Some(&json!("object")) || map.contains_key("properties");
        if is_object && map.get("additionalProperties") != Some(&json!(false)) {
            found.push(format!("{path}: not closed"));
        }
        if let Some(extra) = map.get("additionalProperties")
            && extra != &json!(false)
        {
            found.push(format!("{path}/additionalProperties: {extra}"));
        }
    });
}

/// Every strict schema of these tests keeps to the subset, and the walk is
/// not vacuous: the derived schemas break it.
#[test]
fn every_strict_schema_keeps_to_anthropics_subset() {
    let mut tools = everything_definitions();
    tools.extend([
        definition("forecast", "Forecast", ForecastParams::json_schema()),
        definition("lists", "Lists", Lists::json_schema()),
        definition("draw", "Draw a shape", Shape::json_schema()),
        definition("aim", "Aim at a target", Target::json_schema()),
        definition("hosts", "Hosts", NineHosts::json_schema()),
    ]);
    let mut checked = 0;
    for tool in &tools {
        let converted = anthropic::tools(std::slice::from_ref(tool), Strict::On);
        if strict_flags(&converted) == [true] {
            let schema = &converted.value[0]["input_schema"];
            assert_eq!(
                subset_violations(schema),
                Vec::<String>::new(),
                "{}: {schema}",
                tool.name
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 15);
    for tool in &tools {
        assert!(
            !subset_violations(&tool.parameters).is_empty(),
            "{}: the derived schema already keeps to the subset",
            tool.name
        );
    }
}

/// The strict schema accepts what parse accepts: it only loosens (dropped
/// keywords, `minItems` lowered, a tuple as an array; optional properties
/// stay optional, so no nulls are needed).
#[test]
fn the_strict_schema_accepts_what_parse_accepts() {
    let samples = [
        json!({"query": "rain", "label": "short", "place": {"city": "Oslo"}, "readings": [1, null], "unit": "celsius"}),
        json!({"query": "sun", "days": 3, "label": "x", "retries": 0, "place": {"city": "Rome", "zip": "00100"}, "readings": [], "unit": "fahrenheit"}),
    ];
    let schema = &anthropic::tools(
        &[definition(
            "forecast",
            "Forecast",
            ForecastParams::json_schema(),
        )],
        Strict::On,
    )
    .value[0]["input_schema"];
    let strict = validator_for(schema);
    for sample in &samples {
        assert!(ForecastParams::parse(sample).is_ok(), "{sample}");
        assert!(strict.is_valid(sample), "{sample}");
    }
    let lists =
        json!({"names": ["a", "b", "c"], "some": [1], "rgb": [1, 2, 3], "pair": [true, "x"]});
    assert!(Lists::parse(&lists).is_ok());
    let schema = &anthropic::tools(
        &[definition("lists", "Lists", Lists::json_schema())],
        Strict::On,
    )
    .value[0]["input_schema"];
    assert!(validator_for(schema).is_valid(&lists));
}
