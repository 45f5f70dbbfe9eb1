//! Enums with data, tuples, sets, formats and value lists in every
//! provider format (`tool_core::providers`):
//!
//! - an enum as a tool's whole parameters, in serde's four representations
//!   (internally, adjacently, externally tagged, untagged): written as ONE
//!   object by every format but `neutral` and `mcp`, whose roots must be
//!   plain objects (OpenAI: "Root objects must not be anyOf and must be an
//!   object", <https://developers.openai.com/api/docs/guides/structured-outputs>;
//!   Anthropic: "input_schema does not support oneOf, allOf, or anyOf at
//!   the top level"; Gemini: "The schema must describe an object where the
//!   properties are the parameters", <https://ai.google.dev/api/caching#FunctionDeclaration>).
//!   MCP allows composition keywords beside `"type":"object"` at the root
//!   (<https://modelcontextprotocol.io/specification/2026-07-28/server/tools>);
//! - the same constructs nested in a struct, per format: OpenAI strict's
//!   subset (no `oneOf`, `const`, `uniqueItems`, `prefixItems`, `uri`),
//!   non-strict OpenAI (no `oneOf`), Gemini's OpenAPI subset
//!   (<https://ai.google.dev/api/caching#Schema>);
//! - properties: every converted JSON Schema accepts every value the
//!   derived schema accepts (a conversion only loosens; parse enforces the
//!   rest), and every strict schema keeps to OpenAI's documented rules.

use crate::support::adapter_notes::{LEGACY_CLOSED, LEGACY_OPTIONAL, OPTIONAL_TO_NULLABLE};
use crate::support::generators::samples;
use crate::support::schema_walk::each_subschema;
use crate::support::validator_for;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::net::IpAddr;
use tests::wire::assert_json;
use tests::wire::{definition, diagnostics};
use tool_core::providers::gemini::Dialect;
use tool_core::providers::{Converted, ProviderFormat, Strict};
use tool_core::{ToolDefinition, ToolParams, params::ParamValue};

// ---------------------------------------------------------------------------
// The parameter types under test
// ---------------------------------------------------------------------------

/// A click, a drag, some typing, a wait or a stop.
#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(tag = "action", rename_all = "snake_case")]
enum Action {
    /// Click at a point
    Click { x: u32, y: u32 },
    /// Drag from a point
    Drag { x: u32, y: u32, dx: i32, dy: i32 },
    /// Type some text
    Type {
        text: String,
        /// Milliseconds between keys
        delay: Option<u32>,
    },
    /// Wait a while
    Wait(Wait),
    /// Stop
    Stop,
}

#[derive(ToolParams, Debug, Clone, PartialEq)]
struct Wait {
    #[param(max = 60)]
    seconds: u8,
}

#[derive(ToolParams, Debug, Clone, PartialEq)]
struct Point {
    x: u32,
    y: u32,
}

/// Where the pointer goes
#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(tag = "kind", content = "to", rename_all = "snake_case")]
enum Pointer {
    Point(Point),
    Pair(u32, u32),
    Named(String),
    Home,
}

#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(rename_all = "snake_case")]
enum Shape {
    /// A circle
    Circle { radius: u32 },
    /// A square's side
    Square(u32),
}

#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(untagged)]
enum Target {
    Coordinates { x: u32, y: u32 },
    Label { label: String },
}

/// An expression
#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(tag = "op", rename_all = "snake_case")]
enum Expr {
    Num { value: i32 },
    Add { left: Box<Expr>, right: Box<Expr> },
}

// Externally tagged with a unit variant: a field type only (a string is
// no object, so it cannot be a tool's whole parameters).
#[derive(ToolParams, Debug, Clone, PartialEq)]
#[param(rename_all = "snake_case")]
enum Speed {
    Fixed(u32),
    Auto,
}

// Every nested construct in one struct.
#[derive(ToolParams, Debug)]
struct Form {
    action: Action,
    pointer: Pointer,
    speed: Speed,
    target: Target,
    pair: (u8, String),
    corner: (u32, u32),
    tags: BTreeSet<String>,
    rgb: [u8; 3],
    #[param(format = "uri")]
    link: String,
    #[param(format = "date-time")]
    at: String,
    #[param(format = "email", pattern = "@example\\.com$")]
    mail: String,
    #[param(one_of = [1, 2, 3])]
    level: u8,
    #[param(one_of = ["low", "high"])]
    mode: String,
    #[param(example = "old-a", example = "old-b", deprecated)]
    legacy: Option<String>,
    host: IpAddr,
}

/// The four root enums, one tool each.
fn root_enums() -> Vec<ToolDefinition> {
    vec![
        definition("act", "Act on the screen", Action::json_schema()),
        definition("point", "Move the pointer", Pointer::json_schema()),
        definition("draw", "Draw a shape", Shape::json_schema()),
        definition("aim", "Aim at a target", Target::json_schema()),
    ]
}

fn form() -> Vec<ToolDefinition> {
    vec![definition("fill", "Fill the form", Form::json_schema())]
}

fn expr() -> Vec<ToolDefinition> {
    vec![definition("eval", "Evaluate", Expr::json_schema())]
}

/// The tool entries a format wrote: Gemini's sit under `functionDeclarations`.
fn entries(format: ProviderFormat, converted: &Converted) -> Vec<Value> {
    match format {
        ProviderFormat::Gemini(_) => converted.value["functionDeclarations"].clone(),
        _ => converted.value.clone(),
    }
    .as_array()
    .unwrap()
    .clone()
}

/// The parameters schema of each tool a format wrote.
fn schemas(format: ProviderFormat, converted: &Converted) -> Vec<Value> {
    entries(format, converted)
        .into_iter()
        .map(|entry| match format {
            ProviderFormat::OpenAiChat(_) => entry["function"]["parameters"].clone(),
            ProviderFormat::Anthropic(_) => entry["input_schema"].clone(),
            ProviderFormat::Gemini(Dialect::JsonSchema) => entry["parametersJsonSchema"].clone(),
            ProviderFormat::Gemini(Dialect::OpenApi) => entry["parameters"].clone(),
            ProviderFormat::Mcp => entry["inputSchema"].clone(),
            _ => entry["parameters"].clone(),
        })
        .collect()
}

/// Whether each tool a format wrote was sent strict.
fn strict_flags(format: ProviderFormat, converted: &Converted) -> Vec<bool> {
    entries(format, converted)
        .iter()
        .map(|entry| {
            let flag = match format {
                ProviderFormat::OpenAiChat(Strict::On) => &entry["function"]["strict"],
                _ => &entry["strict"],
            };
            flag.as_bool().unwrap()
        })
        .collect()
}

const STRICT: [ProviderFormat; 2] = [
    ProviderFormat::OpenAiChat(Strict::On),
    ProviderFormat::OpenAiResponses(Strict::On),
];
/// The formats that write a root enum as one object, as it is otherwise.
const FLATTENING_ONLY: [ProviderFormat; 4] = [
    ProviderFormat::OpenAiChat(Strict::Off),
    ProviderFormat::OpenAiResponses(Strict::Off),
    ProviderFormat::Anthropic(Strict::Off),
    ProviderFormat::Gemini(Dialect::JsonSchema),
];
/// The formats that keep the derived schema as it is.
const UNCHANGED: [ProviderFormat; 2] = [ProviderFormat::Neutral, ProviderFormat::Mcp];

const CONST_TO_ENUM: &str = "changed: `const` written as a one-value `enum`";
const GEMINI_CONST_TO_ENUM: &str =
    "changed: `const` written as a one-value `enum` (Gemini's JSON Schema has no `const`)";
const DROPPED_MINIMUM: &str =
    "dropped: strict mode does not accept `minimum` (parse still enforces it)";
const DROPPED_MAXIMUM: &str =
    "dropped: strict mode does not accept `maximum` (parse still enforces it)";
// What strict mode dropped at a node, said to the model in its description.
const SAID_AT_LEAST_ZERO: &str =
    "changed: says what strict mode dropped, for the model: \"At least 0.\"";
const SAID_ZERO_TO_SIXTY: &str =
    "changed: says what strict mode dropped, for the model: \"From 0 to 60.\"";
const SAID_NO_ITEM_TWICE: &str =
    "changed: says what strict mode dropped, for the model: \"No item twice.\"";
const SAID_A_URI: &str =
    "changed: says what strict mode dropped, for the model: \"An absolute URI.\"";
const ACT_FLATTENED: &str = "changed: a choice of 5 object shapes written as one object: \"action\" lists the choices, and the fields only some choices have are optional (parse still enforces each choice's own fields)";
const POINT_FLATTENED: &str = "changed: a choice of 4 object shapes written as one object: \"kind\" lists the choices, the fields only some choices have are optional, and a field the choices describe differently takes what any of them takes (parse still enforces each choice's own fields)";
const TWO_SHAPES_FLATTENED: &str = "changed: a choice of 2 object shapes written as one object: the fields only some choices have are optional (parse still enforces each choice's own fields)";
/// An externally tagged root where the format can count keys.
const ONE_KEY_FLATTENED: &str = "changed: a choice of 2 object shapes written as one object: the fields only some choices have are optional, and `minProperties`/`maxProperties` of 1 ask for exactly one of them (parse still enforces each choice's own fields)";
/// An externally tagged root in Gemini's `parametersJsonSchema`.
const ONE_KEY_FLATTENED_GEMINI: &str = "changed: a choice of 2 object shapes written as one object: the fields only some choices have are optional, and only parse holds a call to exactly one of them (Gemini's parametersJsonSchema has no `minProperties`/`maxProperties`) (parse still enforces each choice's own fields)";

// ---------------------------------------------------------------------------
// The derived schemas every format starts from
// ---------------------------------------------------------------------------

fn u32_schema() -> Value {
    json!({"type": "integer", "minimum": 0, "maximum": 4294967295u64})
}

fn i32_schema() -> Value {
    json!({"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647})
}

fn tag(name: &str, value: &str) -> Value {
    json!({name: {"type": "string", "const": value}})
}

/// An internally tagged choice: the tag, then the variant's fields.
fn variant(description: &str, tag_value: &str, fields: Value, required: &[&str]) -> Value {
    let mut properties = tag("action", tag_value);
    properties
        .as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    let mut required_names = vec!["action"];
    required_names.extend(required);
    json!({
        "description": description,
        "type": "object",
        "properties": properties,
        "required": required_names,
        "additionalProperties": false,
    })
}

fn action_choices() -> Value {
    json!([
        variant(
            "Click at a point",
            "click",
            json!({"x": u32_schema(), "y": u32_schema()}),
            &["x", "y"],
        ),
        variant(
            "Drag from a point",
            "drag",
            json!({"x": u32_schema(), "y": u32_schema(), "dx": i32_schema(), "dy": i32_schema()}),
            &["x", "y", "dx", "dy"],
        ),
        variant(
            "Type some text",
            "type",
            json!({
                "text": {"type": "string"},
                "delay": {"description": "Milliseconds between keys", "type": "integer", "minimum": 0, "maximum": 4294967295u64},
            }),
            &["text"],
        ),
        variant(
            "Wait a while",
            "wait",
            json!({"seconds": {"type": "integer", "minimum": 0, "maximum": 60}}),
            &["seconds"],
        ),
        variant("Stop", "stop", json!({}), &[]),
    ])
}

/// `Action` as a tool's whole parameters: `"type":"object"` beside `oneOf`.
fn act_schema() -> Value {
    json!({
        "description": "A click, a drag, some typing, a wait or a stop.",
        "type": "object",
        "oneOf": action_choices(),
    })
}

#[test]
fn the_derived_root_enums_every_format_starts_from() {
    assert_json(&Action::json_schema(), &act_schema());
    // As a field: no `"type":"object"` beside the choice.
    assert_json(
        &<Action as ParamValue>::schema(),
        &json!({
            "description": "A click, a drag, some typing, a wait or a stop.",
            "oneOf": action_choices(),
        }),
    );
    let adjacent = |kind: &str, content: Option<Value>| {
        let mut properties = tag("kind", kind);
        let mut required = vec!["kind"];
        if let Some(content) = content {
            properties["to"] = content;
            required.push("to");
        }
        json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        })
    };
    assert_json(
        &Pointer::json_schema(),
        &json!({
            "description": "Where the pointer goes",
            "type": "object",
            "oneOf": [
                adjacent("point", Some(point_schema())),
                adjacent("pair", Some(json!({
                    "type": "array",
                    "prefixItems": [u32_schema(), u32_schema()],
                    "items": false,
                    "minItems": 2,
                }))),
                adjacent("named", Some(json!({"type": "string"}))),
                adjacent("home", None),
            ],
        }),
    );
    assert_json(
        &Shape::json_schema(),
        &json!({
            "type": "object",
            "oneOf": [
                {
                    "description": "A circle",
                    "type": "object",
                    "properties": {"circle": {
                        "type": "object",
                        "properties": {"radius": u32_schema()},
                        "required": ["radius"],
                        "additionalProperties": false,
                    }},
                    "required": ["circle"],
                    "maxProperties": 1,
                },
                {
                    "description": "A square's side",
                    "type": "object",
                    "properties": {"square": u32_schema()},
                    "required": ["square"],
                    "maxProperties": 1,
                },
            ],
        }),
    );
    assert_json(
        &Target::json_schema(),
        &json!({
            "type": "object",
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"x": u32_schema(), "y": u32_schema()},
                    "required": ["x", "y"],
                    "additionalProperties": false,
                },
                {
                    "type": "object",
                    "properties": {"label": {"type": "string"}},
                    "required": ["label"],
                    "additionalProperties": false,
                },
            ],
        }),
    );
}

fn point_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"x": u32_schema(), "y": u32_schema()},
        "required": ["x", "y"],
        "additionalProperties": false,
    })
}

// ---------------------------------------------------------------------------
// An internally tagged enum as the whole parameters, in each format
// ---------------------------------------------------------------------------

fn only(tag_values: &str) -> String {
    format!("(only with action {tag_values})")
}

/// `Action` written as one object (before the format's own conversion).
fn act_flattened() -> Value {
    json!({
        "description": "A click, a drag, some typing, a wait or a stop.",
        "type": "object",
        "properties": {
            "action": {
                "description": "\"click\": Click at a point; \"drag\": Drag from a point; \"type\": Type some text; \"wait\": Wait a while; \"stop\": Stop",
                "type": "string",
                "enum": ["click", "drag", "type", "wait", "stop"],
            },
            "x": {"description": only("\"click\", \"drag\""), "type": "integer", "minimum": 0, "maximum": 4294967295u64},
            "y": {"description": only("\"click\", \"drag\""), "type": "integer", "minimum": 0, "maximum": 4294967295u64},
            "dx": {"description": only("\"drag\""), "type": "integer", "minimum": -2147483648i64, "maximum": 2147483647},
            "dy": {"description": only("\"drag\""), "type": "integer", "minimum": -2147483648i64, "maximum": 2147483647},
            "text": {"description": only("\"type\""), "type": "string"},
            "delay": {
                "description": "Milliseconds between keys (only with action \"type\")",
                "type": "integer",
                "minimum": 0,
                "maximum": 4294967295u64,
            },
            "seconds": {"description": only("\"wait\""), "type": "integer", "minimum": 0, "maximum": 60},
        },
        "required": ["action"],
        "additionalProperties": false,
    })
}

/// The strict form: every property required, the optional ones nullable.
fn act_strict() -> Value {
    let mut strict = act_flattened();
    let properties = strict["properties"].as_object_mut().unwrap();
    for (name, property) in properties.iter_mut() {
        if name != "action" {
            *property = json!({"anyOf": [property.clone(), {"type": "null"}]});
        }
    }
    strict["required"] = json!(["action", "x", "y", "dx", "dy", "text", "delay", "seconds"]);
    strict
}

fn act_strict_diagnostics() -> Vec<(&'static str, &'static str, &'static str)> {
    let mut expected = vec![("act", "/oneOf", ACT_FLATTENED)];
    for path in [
        "/properties/x",
        "/properties/y",
        "/properties/dx",
        "/properties/dy",
        "/properties/text",
        "/properties/delay",
        "/properties/seconds",
    ] {
        expected.push(("act", path, OPTIONAL_TO_NULLABLE));
    }
    expected
}

/// Anthropic's strict form: the optional properties stay optional, the
/// integer bounds go (strict tool use has no numerical constraints), said
/// in the description instead: a `u32`'s upper bound and an `i32`'s two
/// are their types' own ranges, not said.
fn act_anthropic_strict() -> Value {
    let mut strict = act_flattened();
    for property in strict["properties"].as_object_mut().unwrap().values_mut() {
        let property = property.as_object_mut().unwrap();
        property.remove("minimum");
        property.remove("maximum");
    }
    let properties = &mut strict["properties"];
    properties["x"]["description"] = json!("(only with action \"click\", \"drag\"). At least 0.");
    properties["y"]["description"] = json!("(only with action \"click\", \"drag\"). At least 0.");
    properties["delay"]["description"] =
        json!("Milliseconds between keys (only with action \"type\"). At least 0.");
    properties["seconds"]["description"] = json!("(only with action \"wait\"). From 0 to 60.");
    strict
}

fn act_anthropic_strict_diagnostics() -> Vec<(&'static str, &'static str, &'static str)> {
    let mut expected = vec![("act", "/oneOf", ACT_FLATTENED)];
    for (minimum, maximum, said) in [
        (
            "/properties/x/minimum",
            "/properties/x/maximum",
            Some(("/properties/x/description", SAID_AT_LEAST_ZERO)),
        ),
        (
            "/properties/y/minimum",
            "/properties/y/maximum",
            Some(("/properties/y/description", SAID_AT_LEAST_ZERO)),
        ),
        ("/properties/dx/minimum", "/properties/dx/maximum", None),
        ("/properties/dy/minimum", "/properties/dy/maximum", None),
        (
            "/properties/delay/minimum",
            "/properties/delay/maximum",
            Some(("/properties/delay/description", SAID_AT_LEAST_ZERO)),
        ),
        (
            "/properties/seconds/minimum",
            "/properties/seconds/maximum",
            Some(("/properties/seconds/description", SAID_ZERO_TO_SIXTY)),
        ),
    ] {
        expected.push(("act", minimum, DROPPED_MINIMUM));
        expected.push(("act", maximum, DROPPED_MAXIMUM));
        if let Some((description, message)) = said {
            expected.push(("act", description, message));
        }
    }
    expected
}

/// The legacy form: no `additionalProperties`, optional properties nullable.
fn act_legacy() -> Value {
    let mut legacy = act_flattened();
    let object = legacy.as_object_mut().unwrap();
    object.remove("additionalProperties");
    for (name, property) in object["properties"].as_object_mut().unwrap() {
        if name != "action" {
            property["nullable"] = json!(true);
        }
    }
    legacy
}

/// The entry each format writes for the `act` tool, around `parameters`.
fn act_entry(format: ProviderFormat, parameters: Value) -> Value {
    let (name, description) = ("act", "Act on the screen");
    match format {
        ProviderFormat::Neutral => {
            json!([{"name": name, "description": description, "parameters": parameters}])
        }
        ProviderFormat::OpenAiChat(Strict::Off) => json!([{"type": "function", "function": {
            "name": name, "description": description, "parameters": parameters,
        }}]),
        ProviderFormat::OpenAiChat(Strict::On) => json!([{"type": "function", "function": {
            "name": name, "description": description, "parameters": parameters, "strict": true,
        }}]),
        ProviderFormat::OpenAiResponses(_) => json!([{
            "type": "function",
            "name": name,
            "description": description,
            "parameters": parameters,
            "strict": format == ProviderFormat::OpenAiResponses(Strict::On),
        }]),
        ProviderFormat::Anthropic(Strict::Off) => {
            json!([{"name": name, "description": description, "input_schema": parameters}])
        }
        ProviderFormat::Anthropic(Strict::On) => json!([{
            "name": name, "description": description, "input_schema": parameters, "strict": true,
        }]),
        ProviderFormat::Gemini(Dialect::JsonSchema) => json!({"functionDeclarations": [{
            "name": name, "description": description, "parametersJsonSchema": parameters,
        }]}),
        ProviderFormat::Gemini(Dialect::OpenApi) => json!({"functionDeclarations": [{
            "name": name, "description": description, "parameters": parameters,
        }]}),
        ProviderFormat::Mcp => {
            json!([{"name": name, "description": description, "inputSchema": parameters}])
        }
    }
}

#[test]
fn an_internally_tagged_root_enum_in_every_format() {
    let tools = vec![definition(
        "act",
        "Act on the screen",
        Action::json_schema(),
    )];
    for format in ProviderFormat::ALL {
        let converted = format.definitions(&tools);
        let (parameters, expected) = match format {
            ProviderFormat::Neutral | ProviderFormat::Mcp => (act_schema(), vec![]),
            ProviderFormat::OpenAiChat(Strict::Off)
            | ProviderFormat::OpenAiResponses(Strict::Off)
            | ProviderFormat::Anthropic(Strict::Off)
            | ProviderFormat::Gemini(Dialect::JsonSchema) => {
                (act_flattened(), vec![("act", "/oneOf", ACT_FLATTENED)])
            }
            ProviderFormat::OpenAiChat(Strict::On)
            | ProviderFormat::OpenAiResponses(Strict::On) => {
                (act_strict(), act_strict_diagnostics())
            }
            ProviderFormat::Anthropic(Strict::On) => {
                (act_anthropic_strict(), act_anthropic_strict_diagnostics())
            }
            ProviderFormat::Gemini(Dialect::OpenApi) => {
                let mut expected = vec![
                    ("act", "/oneOf", ACT_FLATTENED),
                    ("act", "/additionalProperties", LEGACY_CLOSED),
                ];
                for path in [
                    "/properties/x",
                    "/properties/y",
                    "/properties/dx",
                    "/properties/dy",
                    "/properties/text",
                    "/properties/delay",
                    "/properties/seconds",
                ] {
                    expected.push(("act", path, LEGACY_OPTIONAL));
                }
                (act_legacy(), expected)
            }
        };
        assert_json(&converted.value, &act_entry(format, parameters));
        assert_eq!(diagnostics(&converted), expected, "{format}");
    }
}

// ---------------------------------------------------------------------------
// The other representations as the whole parameters
// ---------------------------------------------------------------------------

/// `Pointer` as one object: `to` differs between the choices, so it takes
/// any of their schemas.
fn point_flattened() -> Value {
    json!({
        "description": "Where the pointer goes",
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": ["point", "pair", "named", "home"]},
            "to": {
                "description": "(only with kind \"point\", \"pair\", \"named\")",
                "anyOf": [
                    point_schema(),
                    {"type": "array", "prefixItems": [u32_schema(), u32_schema()], "items": false, "minItems": 2},
                    {"type": "string"},
                ],
            },
        },
        "required": ["kind"],
        "additionalProperties": false,
    })
}

/// `Shape` as one object, where the format takes `minProperties` and
/// `maxProperties`: exactly one of the keys.
fn draw_flattened() -> Value {
    let mut flattened = draw_flattened_gemini();
    flattened["minProperties"] = json!(1);
    flattened["maxProperties"] = json!(1);
    flattened
}

/// `Shape` as one object: each variant an optional property, described by
/// its variant's description (Gemini's `parametersJsonSchema`, which cannot
/// count keys).
fn draw_flattened_gemini() -> Value {
    json!({
        "type": "object",
        "properties": {
            "circle": {
                "description": "A circle",
                "type": "object",
                "properties": {"radius": u32_schema()},
                "required": ["radius"],
                "additionalProperties": false,
            },
            "square": {
                "description": "A square's side",
                "type": "integer",
                "minimum": 0,
                "maximum": 4294967295u64,
            },
        },
        "additionalProperties": false,
    })
}

fn aim_flattened() -> Value {
    json!({
        "type": "object",
        "properties": {
            "x": u32_schema(),
            "y": u32_schema(),
            "label": {"type": "string"},
        },
        "additionalProperties": false,
    })
}

#[test]
fn every_representation_as_the_whole_parameters() {
    let flattened = [
        act_flattened(),
        point_flattened(),
        draw_flattened(),
        aim_flattened(),
    ];
    let root_diagnostics = vec![
        ("act", "/oneOf", ACT_FLATTENED),
        ("point", "/oneOf", POINT_FLATTENED),
        ("draw", "/oneOf", ONE_KEY_FLATTENED),
        ("aim", "/anyOf", TWO_SHAPES_FLATTENED),
    ];
    for format in FLATTENING_ONLY {
        let converted = format.definitions(&root_enums());
        let gemini = format == ProviderFormat::Gemini(Dialect::JsonSchema);
        let mut flattened = flattened.clone();
        let mut root_diagnostics = root_diagnostics.clone();
        if gemini {
            flattened[2] = draw_flattened_gemini();
            root_diagnostics[2].2 = ONE_KEY_FLATTENED_GEMINI;
        }
        for (schema, expected) in schemas(format, &converted).iter().zip(&flattened) {
            assert_json(schema, expected);
        }
        assert_eq!(diagnostics(&converted), root_diagnostics, "{format}");
    }
    for format in UNCHANGED {
        let converted = format.definitions(&root_enums());
        let original: Vec<Value> = root_enums().into_iter().map(|t| t.parameters).collect();
        assert_eq!(schemas(format, &converted), original, "{format}");
        assert!(converted.diagnostics.is_empty(), "{format}");
    }
    // Strict and legacy: the same object, then each format's conversion; the
    // root diagnostic comes first, and every root is an object now.
    for format in STRICT
        .into_iter()
        .chain([ProviderFormat::Gemini(Dialect::OpenApi)])
    {
        let converted = format.definitions(&root_enums());
        for tool in ["act", "point", "draw", "aim"] {
            let first = converted
                .diagnostics
                .iter()
                .find(|d| d.tool == tool)
                .unwrap();
            let expected = root_diagnostics.iter().find(|d| d.0 == tool).unwrap();
            assert_eq!(
                (first.path.as_str(), first.message.as_str()),
                (expected.1, expected.2)
            );
        }
        for schema in schemas(format, &converted) {
            assert_eq!(schema["type"], "object", "{format}");
            assert!(schema.get("oneOf").is_none() && schema.get("anyOf").is_none());
        }
    }
    for format in STRICT {
        assert_eq!(
            strict_flags(format, &format.definitions(&root_enums())),
            [true, true, false, true]
        );
    }
}

#[test]
fn an_adjacently_tagged_root_enum_strict_and_legacy() {
    let tools = &root_enums()[1..2];
    let strict = ProviderFormat::OpenAiChat(Strict::On).definitions(tools);
    assert_json(
        &schemas(ProviderFormat::OpenAiChat(Strict::On), &strict)[0],
        &json!({
            "description": "Where the pointer goes",
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["point", "pair", "named", "home"]},
                "to": {"anyOf": [
                    {
                        "description": "(only with kind \"point\", \"pair\", \"named\")",
                        "anyOf": [
                            point_schema(),
                            {"type": "array", "items": u32_schema(), "minItems": 2, "maxItems": 2},
                            {"type": "string"},
                        ],
                    },
                    {"type": "null"},
                ]},
            },
            "required": ["kind", "to"],
            "additionalProperties": false,
        }),
    );
    assert_eq!(
        diagnostics(&strict),
        vec![
            ("point", "/oneOf", POINT_FLATTENED),
            (
                "point",
                "/properties/to/anyOf/1/prefixItems",
                "changed: a tuple of 2 items written as an array of exactly 2 items of the one schema they share (strict mode does not accept `prefixItems`); the same values pass",
            ),
            ("point", "/properties/to", OPTIONAL_TO_NULLABLE),
        ]
    );

    let legacy = ProviderFormat::Gemini(Dialect::OpenApi).definitions(tools);
    assert_json(
        &schemas(ProviderFormat::Gemini(Dialect::OpenApi), &legacy)[0],
        &json!({
            "description": "Where the pointer goes",
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["point", "pair", "named", "home"]},
                "to": {
                    "description": "(only with kind \"point\", \"pair\", \"named\")",
                    "anyOf": [
                        {
                            "type": "object",
                            "properties": {"x": u32_schema(), "y": u32_schema()},
                            "required": ["x", "y"],
                        },
                        {"type": "array", "items": u32_schema(), "minItems": 2, "maxItems": 2},
                        {"type": "string"},
                    ],
                    "nullable": true,
                },
            },
            "required": ["kind"],
        }),
    );
    assert_eq!(
        diagnostics(&legacy),
        vec![
            ("point", "/oneOf", POINT_FLATTENED),
            ("point", "/additionalProperties", LEGACY_CLOSED),
            (
                "point",
                "/properties/to/anyOf/0/additionalProperties",
                LEGACY_CLOSED
            ),
            (
                "point",
                "/properties/to/anyOf/1/prefixItems",
                "changed: a tuple of 2 items written as an array of exactly 2 items of the one schema they share (Gemini's OpenAPI subset has no `prefixItems`); the same values pass",
            ),
            ("point", "/properties/to", LEGACY_OPTIONAL),
        ]
    );
}

#[test]
fn an_external_and_an_untagged_root_enum_strict() {
    let tools = &root_enums()[2..];
    let strict = ProviderFormat::OpenAiResponses(Strict::On).definitions(tools);
    // External: strict mode would make both keys required (null when
    // unused), and parse takes exactly one key, so the tool goes
    // non-strict, as one object still.
    assert_eq!(
        strict_flags(ProviderFormat::OpenAiResponses(Strict::On), &strict),
        [false, true]
    );
    assert_json(
        &schemas(ProviderFormat::OpenAiResponses(Strict::On), &strict)[0],
        &draw_flattened(),
    );
    assert_eq!(
        Shape::parse(&json!({"circle": null, "square": 5}))
            .unwrap_err()
            .to_string(),
        "arguments: expected an object with exactly one key, the variant's name (one of \"circle\", \"square\"), got 2 keys"
    );
    let nullable = |schema: Value| json!({"anyOf": [schema, {"type": "null"}]});
    assert_json(
        &schemas(ProviderFormat::OpenAiResponses(Strict::On), &strict)[1],
        &json!({
            "type": "object",
            "properties": {
                "x": nullable(u32_schema()),
                "y": nullable(u32_schema()),
                "label": nullable(json!({"type": "string"})),
            },
            "required": ["x", "y", "label"],
            "additionalProperties": false,
        }),
    );
    // Untagged: parse drops the keys its variant does not declare, so the
    // nulls of a strict model are fine.
    assert!(Target::parse(&json!({"x": 1, "y": 2, "label": null})).is_ok());
    assert_eq!(
        diagnostics(&strict),
        vec![
            ("draw", "/oneOf", ONE_KEY_FLATTENED),
            (
                "draw",
                "/oneOf",
                "an externally tagged enum cannot be strict: strict mode would require every variant's key (null when unused), and parse takes exactly one key",
            ),
            (
                "draw",
                "",
                "sent with \"strict\": false and its schema as non-strict OpenAI takes it: the schema cannot be strict (see the other diagnostics)",
            ),
            ("aim", "/anyOf", TWO_SHAPES_FLATTENED),
            ("aim", "/properties/x", OPTIONAL_TO_NULLABLE),
            ("aim", "/properties/y", OPTIONAL_TO_NULLABLE),
            ("aim", "/properties/label", OPTIONAL_TO_NULLABLE),
        ]
    );
}

/// A recursive enum: the root is written as one object, and its `$defs`
/// (strict: the choices as `anyOf`, the tags as `enum`) stay reachable.
#[test]
fn a_recursive_root_enum_keeps_its_references() {
    let strict = ProviderFormat::OpenAiChat(Strict::On).definitions(&expr());
    let schema = &schemas(ProviderFormat::OpenAiChat(Strict::On), &strict)[0];
    assert_eq!(
        strict_flags(ProviderFormat::OpenAiChat(Strict::On), &strict),
        [true]
    );
    let reference = json!({"$ref": "#/$defs/providers.enums.Expr"});
    assert_json(
        &schema["properties"]["left"],
        &json!({"anyOf": [
            {"description": "(only with op \"add\")", "anyOf": [reference]},
            {"type": "null"},
        ]}),
    );
    assert_eq!(
        schema["$defs"]["providers.enums.Expr"]["anyOf"][1]["properties"]["left"],
        reference
    );
    let paths: Vec<&str> = strict.diagnostics.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/oneOf",
            "/$defs/providers.enums.Expr/oneOf",
            "/$defs/providers.enums.Expr/oneOf/0/properties/op/const",
            "/$defs/providers.enums.Expr/oneOf/1/properties/op/const",
            "/properties/value",
            "/properties/left",
            "/properties/left",
            "/properties/right",
            "/properties/right",
        ]
    );
    assert_eq!(
        strict.diagnostics[5].message,
        "changed: the keywords beside `$ref` written around an `anyOf` of the `$ref` alone (strict mode refuses them: \"$ref cannot have keywords\"); the same values pass"
    );
    let mut seen = 0;
    for value in samples(expr_strategy(), 40) {
        let value = value.to_json();
        assert!(Expr::parse(&value).is_ok());
        let strict_value = with_nulls(schema, &value);
        assert!(
            validator_for(schema).is_valid(&strict_value),
            "{strict_value}"
        );
        seen += usize::from(value["op"] == "add");
    }
    assert!(seen > 5);
}

/// A root no object can stand for (a dynamic tool's hand-written schema)
/// is left as it is, and said so: the provider will likely refuse it.
#[test]
fn a_root_choice_of_other_shapes_is_left_and_reported() {
    let odd = json!({
        "type": "object",
        "anyOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}},
            {"type": "string"},
        ],
    });
    let tools = vec![definition("odd", "Odd", odd.clone())];
    let expected = [
        (
            ProviderFormat::OpenAiChat(Strict::Off),
            "OpenAI",
            "Root objects must not be anyOf and must be an object",
        ),
        (
            ProviderFormat::Anthropic(Strict::Off),
            "Anthropic",
            "input_schema does not support oneOf, allOf, or anyOf at the top level",
        ),
        (
            ProviderFormat::Gemini(Dialect::JsonSchema),
            "Gemini",
            "The schema must describe an object where the properties are the parameters",
        ),
    ];
    for (format, provider, says) in expected {
        let converted = format.definitions(&tools);
        assert_eq!(schemas(format, &converted)[0], odd);
        assert_eq!(
            diagnostics(&converted),
            vec![(
                "odd",
                "/anyOf",
                format!(
                    "left as it is: this choice cannot be written as one object (its choices are not all objects with properties); {provider} will likely refuse it (\"{says}\")"
                )
                .as_str()
            )]
        );
    }
    for format in UNCHANGED {
        assert!(format.definitions(&tools).diagnostics.is_empty());
    }
}

/// A choice that cannot be strict (a map in one variant): the tool is sent
/// non-strict, but still written as one object, `oneOf` nowhere; only the
/// reasons are reported, not what the strict form would have changed.
#[test]
fn a_root_enum_that_cannot_be_strict() {
    #[derive(ToolParams, Debug)]
    #[param(tag = "op", rename_all = "snake_case")]
    enum Store {
        Put {
            key: String,
            values: std::collections::BTreeMap<String, u8>,
        },
        Drop {
            key: String,
            kind: Option<Shape>,
        },
    }
    let tools = vec![definition("store", "Store", Store::json_schema())];
    let converted = ProviderFormat::OpenAiChat(Strict::On).definitions(&tools);
    assert_eq!(
        strict_flags(ProviderFormat::OpenAiChat(Strict::On), &converted),
        [false]
    );
    let schema = &schemas(ProviderFormat::OpenAiChat(Strict::On), &converted)[0];
    assert_eq!(schema["properties"]["op"]["enum"], json!(["put", "drop"]));
    assert!(schema["properties"]["kind"]["anyOf"].is_array());
    assert!(!schema.to_string().contains("oneOf"));
    assert_eq!(
        diagnostics(&converted),
        vec![
            (
                "store",
                "/oneOf",
                "changed: a choice of 2 object shapes written as one object: \"op\" lists the choices, and the fields only some choices have are optional (parse still enforces each choice's own fields)"
            ),
            (
                "store",
                "/properties/values/additionalProperties",
                "a map (an object with any keys) cannot be strict: strict mode needs every key listed"
            ),
            (
                "store",
                "/properties/kind/oneOf",
                "changed: `oneOf` written as `anyOf`, the same values for a tagged enum (no value matches two of its choices): OpenAI refuses `oneOf` (\"'oneOf' is not permitted\")"
            ),
            (
                "store",
                "",
                "sent with \"strict\": false and its schema as non-strict OpenAI takes it: the schema cannot be strict (see the other diagnostics)"
            ),
        ]
    );
}

// ---------------------------------------------------------------------------
// Nested constructs
// ---------------------------------------------------------------------------

/// Each converted property of `Form`, by name.
fn form_property(format: ProviderFormat, name: &str) -> Value {
    let converted = format.definitions(&form());
    schemas(format, &converted)[0]["properties"][name].clone()
}

#[test]
fn nested_constructs_as_derived() {
    let schema = Form::json_schema();
    let p = &schema["properties"];
    assert_json(
        &p["pair"],
        &json!({"type": "array", "prefixItems": [
            {"type": "integer", "minimum": 0, "maximum": 255}, {"type": "string"},
        ], "items": false, "minItems": 2}),
    );
    assert_json(
        &p["tags"],
        &json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true}),
    );
    assert_json(
        &p["rgb"],
        &json!({"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}, "minItems": 3, "maxItems": 3}),
    );
    assert_json(&p["link"], &json!({"type": "string", "format": "uri"}));
    assert_json(
        &p["mail"],
        &json!({"type": "string", "pattern": "@example\\.com$", "format": "email"}),
    );
    assert_json(
        &p["level"],
        &json!({"type": "integer", "minimum": 0, "maximum": 255, "enum": [1, 2, 3]}),
    );
    assert_json(
        &p["mode"],
        &json!({"type": "string", "enum": ["low", "high"]}),
    );
    assert_json(
        &p["legacy"],
        &json!({"type": "string", "examples": ["old-a", "old-b"], "deprecated": true}),
    );
    assert_json(
        &p["host"],
        &json!({"type": "string", "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}),
    );
    assert_json(
        &p["speed"],
        &json!({"oneOf": [
            {"type": "object", "properties": {"fixed": u32_schema()}, "required": ["fixed"], "maxProperties": 1},
            {"type": "string", "const": "auto"},
        ]}),
    );
    // Formats that keep nested constructs as they are (Gemini's
    // `parametersJsonSchema` writes `const` as `enum`: see
    // `gemini_json_schema_writes_const_as_enum`).
    for format in [
        ProviderFormat::Neutral,
        ProviderFormat::Anthropic(Strict::Off),
        ProviderFormat::Mcp,
    ] {
        let converted = format.definitions(&form());
        assert_eq!(schemas(format, &converted)[0], schema, "{format}");
        assert!(converted.diagnostics.is_empty(), "{format}");
    }
}

const ONE_OF_STRICT: &str = "changed: `oneOf` written as `anyOf`, the same values for a tagged enum (no value matches two of its choices): strict mode does not accept `oneOf`";
const ONE_OF_OPENAI: &str = "changed: `oneOf` written as `anyOf`, the same values for a tagged enum (no value matches two of its choices): OpenAI refuses `oneOf` (\"'oneOf' is not permitted\")";
const ONE_OF_LEGACY: &str = "changed: `oneOf` written as `anyOf`, the same values for a tagged enum (no value matches two of its choices): Gemini's OpenAPI subset has no `oneOf`";

#[test]
fn nested_constructs_in_non_strict_openai() {
    for format in [
        ProviderFormat::OpenAiChat(Strict::Off),
        ProviderFormat::OpenAiResponses(Strict::Off),
    ] {
        let converted = format.definitions(&form());
        let mut expected = Form::json_schema();
        for name in ["action", "pointer", "speed"] {
            let property = expected["properties"][name].as_object_mut().unwrap();
            let choices = property.remove("oneOf").unwrap();
            property.insert("anyOf".into(), choices);
        }
        assert_json(&schemas(format, &converted)[0], &expected);
        assert_eq!(
            diagnostics(&converted),
            vec![
                ("fill", "/properties/action/oneOf", ONE_OF_OPENAI),
                ("fill", "/properties/pointer/oneOf", ONE_OF_OPENAI),
                ("fill", "/properties/speed/oneOf", ONE_OF_OPENAI),
            ],
            "{format}"
        );
    }
}

#[test]
fn nested_constructs_in_openai_strict() {
    for format in STRICT {
        let converted = format.definitions(&form());
        assert_eq!(strict_flags(format, &converted), [true]);
        let property = |name: &str| form_property(format, name);
        assert_json(
            &property("pair"),
            &json!({"type": "array", "items": {"anyOf": [
                {"type": "integer", "minimum": 0, "maximum": 255}, {"type": "string"},
            ]}, "minItems": 2, "maxItems": 2}),
        );
        assert_json(
            &property("corner"),
            &json!({"type": "array", "items": u32_schema(), "minItems": 2, "maxItems": 2}),
        );
        assert_json(
            &property("tags"),
            &json!({"type": "array", "items": {"type": "string"}, "description": "No item twice."}),
        );
        assert_json(
            &property("rgb"),
            &json!({"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}, "minItems": 3, "maxItems": 3}),
        );
        assert_json(
            &property("link"),
            &json!({"type": "string", "description": "An absolute URI."}),
        );
        assert_json(
            &property("at"),
            &json!({"type": "string", "format": "date-time"}),
        );
        assert_json(
            &property("mail"),
            &json!({"type": "string", "pattern": "@example\\.com$", "format": "email"}),
        );
        assert_json(
            &property("level"),
            &json!({"type": "integer", "minimum": 0, "maximum": 255, "enum": [1, 2, 3]}),
        );
        assert_json(
            &property("legacy"),
            &json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
        );
        assert_json(
            &property("host"),
            &json!({"anyOf": [{"type": "string", "format": "ipv4"}, {"type": "string", "format": "ipv6"}]}),
        );
        assert_json(
            &property("speed"),
            &json!({"anyOf": [
                {"type": "object", "properties": {"fixed": u32_schema()}, "required": ["fixed"], "additionalProperties": false},
                {"type": "string", "enum": ["auto"]},
            ]}),
        );
        let action = property("action");
        assert_eq!(
            action["anyOf"][0]["properties"]["action"],
            json!({"type": "string", "enum": ["click"]})
        );
        assert_eq!(
            action["anyOf"][2]["required"],
            json!(["action", "text", "delay"])
        );

        let mut expected = vec![("fill", "/properties/action/oneOf", ONE_OF_STRICT)];
        for i in 0..5 {
            expected.push((
                "fill",
                [
                    "/properties/action/oneOf/0/properties/action/const",
                    "/properties/action/oneOf/1/properties/action/const",
                    "/properties/action/oneOf/2/properties/action/const",
                    "/properties/action/oneOf/3/properties/action/const",
                    "/properties/action/oneOf/4/properties/action/const",
                ][i],
                CONST_TO_ENUM,
            ));
            if i == 2 {
                expected.push((
                    "fill",
                    "/properties/action/oneOf/2/properties/delay",
                    OPTIONAL_TO_NULLABLE,
                ));
            }
        }
        expected.extend([
            ("fill", "/properties/pointer/oneOf", ONE_OF_STRICT),
            ("fill", "/properties/pointer/oneOf/0/properties/kind/const", CONST_TO_ENUM),
            ("fill", "/properties/pointer/oneOf/1/properties/kind/const", CONST_TO_ENUM),
            (
                "fill",
                "/properties/pointer/oneOf/1/properties/to/prefixItems",
                "changed: a tuple of 2 items written as an array of exactly 2 items of the one schema they share (strict mode does not accept `prefixItems`); the same values pass",
            ),
            ("fill", "/properties/pointer/oneOf/2/properties/kind/const", CONST_TO_ENUM),
            ("fill", "/properties/pointer/oneOf/3/properties/kind/const", CONST_TO_ENUM),
            ("fill", "/properties/speed/oneOf", ONE_OF_STRICT),
            (
                "fill",
                "/properties/speed/oneOf/0/maxProperties",
                "dropped: strict mode does not accept `maxProperties` (parse still enforces it)",
            ),
            ("fill", "/properties/speed/oneOf/1/const", CONST_TO_ENUM),
            (
                "fill",
                "/properties/pair/prefixItems",
                "changed: a tuple of 2 items written as an array of exactly 2 items, each any of the tuple's item schemas (strict mode does not accept `prefixItems`; parse still enforces each position's own)",
            ),
            (
                "fill",
                "/properties/corner/prefixItems",
                "changed: a tuple of 2 items written as an array of exactly 2 items of the one schema they share (strict mode does not accept `prefixItems`); the same values pass",
            ),
            (
                "fill",
                "/properties/tags/uniqueItems",
                "dropped: strict mode does not accept `uniqueItems` (parse still enforces it)",
            ),
            ("fill", "/properties/tags/description", SAID_NO_ITEM_TWICE),
            (
                "fill",
                "/properties/link/format",
                "dropped: strict mode does not accept the format \"uri\" (only date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid) (parse still enforces it)",
            ),
            ("fill", "/properties/link/description", SAID_A_URI),
            (
                "fill",
                "/properties/legacy/examples",
                "dropped: strict mode does not accept `examples` (only a hint to the model, which parse does not need)",
            ),
            (
                "fill",
                "/properties/legacy/deprecated",
                "dropped: strict mode does not accept `deprecated` (only a hint to the model, which parse does not need)",
            ),
            ("fill", "/properties/legacy", OPTIONAL_TO_NULLABLE),
            (
                "fill",
                "/properties/host",
                "changed: `type` written into each choice (strict mode wants a type in every schema: \"schema must have a 'type' key\"); the same values pass",
            ),
        ]);
        assert_eq!(diagnostics(&converted), expected, "{format}");
    }
}

/// `schema` with each `const` a one-value `enum`, and the JSON Pointer of
/// each, in document order.
fn consts_as_enums(schema: &Value, path: &str, paths: &mut Vec<String>) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| {
                    let at = format!("{path}/{key}");
                    if key == "const" {
                        paths.push(at);
                        ("enum".to_owned(), json!([value]))
                    } else {
                        (key.clone(), consts_as_enums(value, &at, paths))
                    }
                })
                .collect(),
        ),
        Value::Array(values) => Value::Array(
            values
                .iter()
                .enumerate()
                .map(|(i, value)| consts_as_enums(value, &format!("{path}/{i}"), paths))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Gemini's `parametersJsonSchema` has no `const` (its documented keywords,
/// <https://ai.google.dev/api/generate-content#generationconfig>): each
/// tag's `const` is written as a one-value `enum`, which it has, and said
/// so; nothing else of the nested constructs changes.
#[test]
fn gemini_json_schema_writes_const_as_enum() {
    let format = ProviderFormat::Gemini(Dialect::JsonSchema);
    let converted = format.definitions(&form());
    let mut paths = Vec::new();
    let expected = consts_as_enums(&Form::json_schema(), "", &mut paths);
    assert_eq!(schemas(format, &converted)[0], expected);
    assert!(
        !schemas(format, &converted)[0]
            .to_string()
            .contains("\"const\"")
    );
    // Every tag of `action`, `pointer` and `speed`'s unit variant.
    assert_eq!(paths.len(), 5 + 4 + 1);
    let expected_diagnostics: Vec<(&str, &str, &str)> = paths
        .iter()
        .map(|path| ("fill", path.as_str(), GEMINI_CONST_TO_ENUM))
        .collect();
    assert_eq!(diagnostics(&converted), expected_diagnostics);
    assert_eq!(
        paths[0],
        "/properties/action/oneOf/0/properties/action/const"
    );
    assert_eq!(paths[9], "/properties/speed/oneOf/1/const");

    // A recursive root enum: the tags in its `$defs` too.
    let converted = format.definitions(&expr());
    let schema = &schemas(format, &converted)[0];
    let tags: Vec<&Value> = schema["$defs"]["providers.enums.Expr"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|choice| &choice["properties"]["op"])
        .collect();
    assert_eq!(
        tags,
        [
            &json!({"type": "string", "enum": ["num"]}),
            &json!({"type": "string", "enum": ["add"]}),
        ]
    );

    // A `const` no `enum` of Gemini's can say (not a string or a number) is
    // dropped, said so; one beside an `enum` too.
    let tools = vec![definition(
        "odd",
        "Odd",
        json!({
            "type": "object",
            "properties": {
                "yes": {"const": true},
                "both": {"type": "string", "enum": ["a"], "const": "a"},
                "three": {"const": 3},
            },
            "required": ["yes", "both", "three"],
        }),
    )];
    let converted = format.definitions(&tools);
    assert_eq!(
        schemas(format, &converted)[0]["properties"],
        json!({"yes": {}, "both": {"type": "string", "enum": ["a"]}, "three": {"enum": [3]}})
    );
    let dropped = "dropped: Gemini's JSON Schema has no `const`, and its `enum` takes only strings and numbers (parse still enforces it)";
    assert_eq!(
        diagnostics(&converted),
        vec![
            ("odd", "/properties/yes/const", dropped),
            ("odd", "/properties/both/const", dropped),
            ("odd", "/properties/three/const", GEMINI_CONST_TO_ENUM),
        ]
    );
}

/// An externally tagged enum at the root, written as one object, still
/// says "exactly one of these keys" (`minProperties`/`maxProperties` 1)
/// wherever the format has those keywords: OpenAI without strict mode (any
/// JSON Schema), Anthropic, Gemini's legacy `Schema`
/// (<https://ai.google.dev/api/caching#Schema>); not Gemini's
/// `parametersJsonSchema` (not on its list) nor a strict mode (dropped, and
/// said so). MCP keeps the choice itself.
#[test]
fn a_merged_external_root_keeps_exactly_one_key_where_the_format_can() {
    let tools = &root_enums()[2..3];
    let counts = |format: ProviderFormat| {
        let converted = format.definitions(tools);
        let schema = schemas(format, &converted)[0].clone();
        (
            schema.get("minProperties").cloned(),
            schema.get("maxProperties").cloned(),
        )
    };
    let one = (Some(json!(1)), Some(json!(1)));
    for format in [
        ProviderFormat::OpenAiChat(Strict::Off),
        ProviderFormat::OpenAiChat(Strict::On),
        ProviderFormat::OpenAiResponses(Strict::Off),
        ProviderFormat::OpenAiResponses(Strict::On),
        ProviderFormat::Anthropic(Strict::Off),
        ProviderFormat::Gemini(Dialect::OpenApi),
    ] {
        assert_eq!(counts(format), one, "{format}");
    }
    for format in [
        ProviderFormat::Anthropic(Strict::On),
        ProviderFormat::Gemini(Dialect::JsonSchema),
        ProviderFormat::Neutral,
        ProviderFormat::Mcp,
    ] {
        assert_eq!(counts(format), (None, None), "{format}");
    }
    // The merged object takes one key, and refuses none or two, as parse does.
    let merged = schemas(
        ProviderFormat::OpenAiChat(Strict::Off),
        &ProviderFormat::OpenAiChat(Strict::Off).definitions(tools),
    )[0]
    .clone();
    let validator = validator_for(&merged);
    for (value, valid) in [
        (json!({"circle": {"radius": 2}}), true),
        (json!({"square": 3}), true),
        (json!({}), false),
        (json!({"circle": {"radius": 2}, "square": 3}), false),
    ] {
        assert_eq!(validator.is_valid(&value), valid, "{value}");
        assert_eq!(Shape::parse(&value).is_ok(), valid, "{value}");
    }
    // Anthropic's strict mode has no such keywords: dropped, said so.
    let strict = ProviderFormat::Anthropic(Strict::On).definitions(tools);
    assert_eq!(
        diagnostics(&strict)[..3],
        [
            ("draw", "/oneOf", ONE_KEY_FLATTENED),
            (
                "draw",
                "/minProperties",
                "dropped: strict mode does not accept `minProperties` (parse still enforces it)"
            ),
            (
                "draw",
                "/maxProperties",
                "dropped: strict mode does not accept `maxProperties` (parse still enforces it)"
            ),
        ]
    );
    // An internally tagged root is no one-key choice: nothing added.
    let act = ProviderFormat::OpenAiChat(Strict::Off).definitions(&root_enums()[..1]);
    assert_eq!(
        schemas(ProviderFormat::OpenAiChat(Strict::Off), &act)[0].get("maxProperties"),
        None
    );
}

#[test]
fn nested_constructs_in_gemini_legacy() {
    let converted = ProviderFormat::Gemini(Dialect::OpenApi).definitions(&form());
    let property = |name: &str| form_property(ProviderFormat::Gemini(Dialect::OpenApi), name);
    assert_json(
        &property("pair"),
        &json!({"type": "array", "items": {"anyOf": [
            {"type": "integer", "minimum": 0, "maximum": 255}, {"type": "string"},
        ]}, "minItems": 2, "maxItems": 2}),
    );
    assert_json(
        &property("tags"),
        &json!({"type": "array", "items": {"type": "string"}, "description": "No item twice."}),
    );
    assert_json(
        &property("link"),
        &json!({"type": "string", "description": "An absolute URI."}),
    );
    assert_json(
        &property("at"),
        &json!({"type": "string", "format": "date-time"}),
    );
    assert_json(
        &property("mail"),
        &json!({"type": "string", "pattern": "@example\\.com$", "description": "An email address."}),
    );
    assert_json(
        &property("level"),
        &json!({"type": "integer", "minimum": 0, "maximum": 255, "enum": [1, 2, 3]}),
    );
    assert_json(
        &property("legacy"),
        &json!({"type": "string", "example": "old-a", "nullable": true}),
    );
    // Each address family's format, dropped, is said in its branch.
    assert_json(
        &property("host"),
        &json!({"anyOf": [
            {"type": "string", "description": "An IPv4 address."},
            {"type": "string", "description": "An IPv6 address."},
        ]}),
    );
    assert_json(
        &property("speed"),
        &json!({"anyOf": [
            {"type": "object", "maxProperties": 1, "properties": {"fixed": u32_schema()}, "required": ["fixed"]},
            {"type": "string", "enum": ["auto"]},
        ]}),
    );
    assert_json(
        &property("target"),
        &json!({"anyOf": [
            {"type": "object", "properties": {"x": u32_schema(), "y": u32_schema()}, "required": ["x", "y"]},
            {"type": "object", "properties": {"label": {"type": "string"}}, "required": ["label"]},
        ]}),
    );
    let said: Vec<(&str, &str)> = converted
        .diagnostics
        .iter()
        .filter(|d| d.message != LEGACY_CLOSED && d.message != CONST_TO_ENUM)
        .map(|d| (d.path.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            ("/properties/action/oneOf", ONE_OF_LEGACY),
            (
                "/properties/action/oneOf/2/properties/delay",
                LEGACY_OPTIONAL
            ),
            ("/properties/pointer/oneOf", ONE_OF_LEGACY),
            (
                "/properties/pointer/oneOf/1/properties/to/prefixItems",
                "changed: a tuple of 2 items written as an array of exactly 2 items of the one schema they share (Gemini's OpenAPI subset has no `prefixItems`); the same values pass",
            ),
            ("/properties/speed/oneOf", ONE_OF_LEGACY),
            (
                "/properties/pair/prefixItems",
                "changed: a tuple of 2 items written as an array of exactly 2 items, each any of the tuple's item schemas (Gemini's OpenAPI subset has no `prefixItems`; parse still enforces each position's own)",
            ),
            (
                "/properties/corner/prefixItems",
                "changed: a tuple of 2 items written as an array of exactly 2 items of the one schema they share (Gemini's OpenAPI subset has no `prefixItems`); the same values pass",
            ),
            (
                "/properties/tags/uniqueItems",
                "dropped: Gemini's OpenAPI subset has no `uniqueItems` (parse still enforces it)",
            ),
            (
                "/properties/tags/description",
                "changed: says what Gemini's OpenAPI subset dropped, for the model: \"No item twice.\"",
            ),
            (
                "/properties/link/format",
                "dropped: Gemini's OpenAPI subset has no format \"uri\" here (only \"date-time\" and \"enum\" for a string) (parse still enforces it)",
            ),
            (
                "/properties/link/description",
                "changed: says what Gemini's OpenAPI subset dropped, for the model: \"An absolute URI.\"",
            ),
            (
                "/properties/mail/format",
                "dropped: Gemini's OpenAPI subset has no format \"email\" here (only \"date-time\" and \"enum\" for a string) (parse still enforces it)",
            ),
            (
                "/properties/mail/description",
                "changed: says what Gemini's OpenAPI subset dropped, for the model: \"An email address.\"",
            ),
            (
                "/properties/legacy/examples",
                "changed: `examples` written as `example`, the first of 2 (OpenAPI 3.0 has one example)",
            ),
            (
                "/properties/legacy/deprecated",
                "dropped: Gemini's OpenAPI subset has no `deprecated` (only a hint to the model, which parse does not need)",
            ),
            ("/properties/legacy", LEGACY_OPTIONAL),
            (
                "/properties/host",
                "changed: `type` written into each choice (Gemini wants a type on every schema); the same values pass",
            ),
            (
                "/properties/host/anyOf/0/format",
                "dropped: Gemini's OpenAPI subset has no format \"ipv4\" here (only \"date-time\" and \"enum\" for a string) (parse still enforces it)",
            ),
            (
                "/properties/host/anyOf/0/description",
                "changed: says what Gemini's OpenAPI subset dropped, for the model: \"An IPv4 address.\"",
            ),
            (
                "/properties/host/anyOf/1/format",
                "dropped: Gemini's OpenAPI subset has no format \"ipv6\" here (only \"date-time\" and \"enum\" for a string) (parse still enforces it)",
            ),
            (
                "/properties/host/anyOf/1/description",
                "changed: says what Gemini's OpenAPI subset dropped, for the model: \"An IPv6 address.\"",
            ),
        ]
    );
    let legacy = &schemas(ProviderFormat::Gemini(Dialect::OpenApi), &converted)[0];
    let text = legacy.to_string();
    for keyword in [
        "oneOf",
        "const",
        "prefixItems",
        "uniqueItems",
        "additionalProperties",
        "examples",
        "deprecated",
        "\"items\":false",
    ] {
        assert!(!text.contains(keyword), "{keyword} in {legacy}");
    }
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

fn text() -> impl Strategy<Value = String> {
    "[a-z \"é]{0,8}"
}

fn action_strategy() -> impl Strategy<Value = Action> {
    prop_oneof![
        (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Action::Click { x, y }),
        (any::<u32>(), any::<u32>(), any::<i32>(), any::<i32>())
            .prop_map(|(x, y, dx, dy)| Action::Drag { x, y, dx, dy }),
        (text(), proptest::option::of(any::<u32>()))
            .prop_map(|(text, delay)| Action::Type { text, delay }),
        (0u8..=60).prop_map(|seconds| Action::Wait(Wait { seconds })),
        Just(Action::Stop),
    ]
}

fn pointer_strategy() -> impl Strategy<Value = Pointer> {
    prop_oneof![
        (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Pointer::Point(Point { x, y })),
        (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Pointer::Pair(x, y)),
        text().prop_map(Pointer::Named),
        Just(Pointer::Home),
    ]
}

fn shape_strategy() -> impl Strategy<Value = Shape> {
    prop_oneof![
        any::<u32>().prop_map(|radius| Shape::Circle { radius }),
        any::<u32>().prop_map(Shape::Square),
    ]
}

fn target_strategy() -> impl Strategy<Value = Target> {
    prop_oneof![
        (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Target::Coordinates { x, y }),
        text().prop_map(|label| Target::Label { label }),
    ]
}

fn expr_strategy() -> impl Strategy<Value = Expr> {
    let leaf = any::<i32>().prop_map(|value| Expr::Num { value });
    leaf.prop_recursive(3, 12, 2, |inner| {
        (inner.clone(), inner).prop_map(|(left, right)| Expr::Add {
            left: Box::new(left),
            right: Box::new(right),
        })
    })
}

/// Hand-written `Form` arguments: every construct, valid values only.
fn form_values() -> Vec<Value> {
    let base = json!({
        "action": {"action": "type", "text": "hi", "delay": 5},
        "pointer": {"kind": "pair", "to": [1, 2]},
        "speed": "auto",
        "target": {"label": "ok"},
        "pair": [7, "seven"],
        "corner": [0, 4294967295u64],
        "tags": ["a", "b"],
        "rgb": [0, 128, 255],
        "link": "https://example.com/a?b=c",
        "at": "2026-07-28T12:00:00Z",
        "mail": "me@example.com",
        "level": 2,
        "mode": "low",
        "legacy": "x",
        "host": "192.168.0.1",
    });
    let with = |changes: Value| {
        let mut value = base.clone();
        for (key, changed) in changes.as_object().unwrap() {
            value[key] = changed.clone();
        }
        value
    };
    let mut values = vec![base.clone()];
    for action in samples(action_strategy(), 8) {
        values.push(with(json!({"action": action.to_json()})));
    }
    for pointer in samples(pointer_strategy(), 6) {
        values.push(with(json!({"pointer": pointer.to_json()})));
    }
    for target in samples(target_strategy(), 4) {
        values.push(with(json!({"target": target.to_json()})));
    }
    values.extend([
        with(json!({"speed": {"fixed": 3}})),
        with(json!({"tags": []})),
        with(json!({"host": "::1", "level": 3, "mode": "high"})),
        with(json!({"host": "2001:db8::8a2e:370:7334", "level": 1})),
        with(json!({"link": "urn:isbn:0451450523", "at": "1998-12-31T23:59:60Z"})),
        with(json!({"pair": [0, ""], "corner": [5, 5]})),
    ]);
    let mut without_legacy = base.clone();
    without_legacy.as_object_mut().unwrap().remove("legacy");
    values.push(without_legacy);
    values
}

/// Every tool and valid arguments for it: generated enum values (through
/// `to_json`) and hand-written `Form` arguments.
fn tools_and_values() -> Vec<(ToolDefinition, Vec<Value>)> {
    fn json_of<T: ParamValue>(values: Vec<T>) -> Vec<Value> {
        values.iter().map(ParamValue::to_json).collect()
    }
    let tools = root_enums();
    vec![
        (tools[0].clone(), json_of(samples(action_strategy(), 50))),
        (tools[1].clone(), json_of(samples(pointer_strategy(), 50))),
        (tools[2].clone(), json_of(samples(shape_strategy(), 30))),
        (tools[3].clone(), json_of(samples(target_strategy(), 30))),
        (expr()[0].clone(), json_of(samples(expr_strategy(), 40))),
        (form()[0].clone(), form_values()),
    ]
}

/// Parses `value` as the tool named `tool` wants.
fn parses(tool: &str, value: &Value) -> bool {
    match tool {
        "act" => Action::parse(value).is_ok(),
        "point" => Pointer::parse(value).is_ok(),
        "draw" => Shape::parse(value).is_ok(),
        "aim" => Target::parse(value).is_ok(),
        "eval" => Expr::parse(value).is_ok(),
        "fill" => Form::parse(value).is_ok(),
        _ => unreachable!(),
    }
}

/// Every JSON-Schema format (legacy Gemini is OpenAPI, strict has its own
/// property below) accepts every value the derived schema accepts.
#[test]
fn a_conversion_only_loosens() {
    let formats = [
        ProviderFormat::Neutral,
        ProviderFormat::OpenAiChat(Strict::Off),
        ProviderFormat::OpenAiResponses(Strict::Off),
        ProviderFormat::Anthropic(Strict::Off),
        ProviderFormat::Anthropic(Strict::On),
        ProviderFormat::Gemini(Dialect::JsonSchema),
        ProviderFormat::Mcp,
    ];
    let mut checked = 0;
    for (tool, values) in tools_and_values() {
        let original = validator_for(&tool.parameters);
        for format in formats {
            let converted = format.definitions(std::slice::from_ref(&tool));
            let schema = &schemas(format, &converted)[0];
            jsonschema::draft202012::meta::validate(schema)
                .unwrap_or_else(|error| panic!("{format} {}: {error}", tool.name));
            let converted = validator_for(schema);
            for value in &values {
                assert!(
                    parses(&tool.name, value),
                    "{}: parse refuses {value}",
                    tool.name
                );
                assert!(
                    original.is_valid(value),
                    "{}: derived schema refuses {value}",
                    tool.name
                );
                assert!(
                    converted.is_valid(value),
                    "{format} {}: refuses {value}\n{schema}",
                    tool.name
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 7 * 200, "{checked}");
}

/// `value` as a strict-mode model writes it: every property the strict
/// schema lists present, `null` for the absent ones (at the root, and in
/// nested objects reached through `properties`).
fn with_nulls(schema: &Value, value: &Value) -> Value {
    let (Some(properties), Value::Object(object)) = (schema["properties"].as_object(), value)
    else {
        return value.clone();
    };
    let mut filled = object.clone();
    for (name, property) in properties {
        match object.get(name) {
            Some(present) => {
                filled.insert(name.clone(), with_nulls(property, present));
            }
            None => {
                filled.insert(name.clone(), Value::Null);
            }
        }
    }
    Value::Object(filled)
}

/// The strict schema accepts every derived-valid value in the form a
/// strict model writes it (absent = `null`).
#[test]
fn the_strict_schema_accepts_every_value_in_strict_form() {
    for (tool, values) in tools_and_values() {
        for format in STRICT {
            let converted = format.definitions(std::slice::from_ref(&tool));
            // The externally tagged root is sent non-strict (see above).
            assert_eq!(strict_flags(format, &converted), [tool.name != "draw"]);
            if tool.name == "draw" {
                continue;
            }
            let schema = &schemas(format, &converted)[0];
            let strict = validator_for(schema);
            for value in &values {
                let written = with_nulls(schema, value);
                assert!(
                    parses(&tool.name, &written),
                    "{}: parse refuses {written}",
                    tool.name
                );
                assert!(
                    strict.is_valid(&written),
                    "{format} {}: refuses {written}\n{schema}",
                    tool.name
                );
            }
        }
    }
}

/// What OpenAI's strict mode documents (and its API enforces), checked on
/// a schema: the root an object, not `anyOf`; every object closed with
/// every property required; no `oneOf`, `allOf`, `not`, `if`, `const`,
/// `uniqueItems`, `prefixItems` or other keyword outside the subset; only
/// the listed formats; a type (or `anyOf`, or a lone `$ref`) on every schema.
fn strict_violations(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    if schema["type"] != "object" || schema.get("anyOf").is_some() {
        found.push("root: not a plain object".to_owned());
    }
    strict_walk(schema, "", &mut found);
    found
}

fn strict_walk(schema: &Value, path: &str, found: &mut Vec<String>) {
    const ALLOWED: &[&str] = &[
        "type",
        "description",
        "enum",
        "pattern",
        "format",
        "multipleOf",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
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
        "ipv4",
        "ipv6",
        "uuid",
    ];
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
        if !(map.contains_key("type") || map.contains_key("anyOf") || map.contains_key("$ref")) {
            found.push(format!("{path}: no type"));
        }
        if map.contains_key("$ref") && map.len() > 1 {
            found.push(format!("{path}: keywords beside $ref"));
        }
        if let Some(format) = map.get("format")
            && !FORMATS.contains(&format.as_str().unwrap_or_default())
        {
            found.push(format!("{path}/format: {format}"));
        }
        if map.get("type") == Some(&json!("object")) {
            let properties: Vec<&String> = map
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().collect())
                .unwrap_or_default();
            let required: Vec<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if map.get("additionalProperties") != Some(&json!(false)) {
                found.push(format!("{path}: not closed"));
            }
            if properties.iter().map(|p| p.as_str()).collect::<Vec<_>>() != required {
                found.push(format!("{path}: not every property required"));
            }
        }
    });
}

#[test]
fn every_strict_schema_keeps_to_openais_rules() {
    let mut tools: Vec<ToolDefinition> = root_enums();
    tools.extend(form());
    tools.extend(expr());
    tools.retain(|tool| tool.name != "draw");
    for format in STRICT {
        let converted = format.definitions(&tools);
        assert_eq!(strict_flags(format, &converted), vec![true; tools.len()]);
        for (schema, tool) in schemas(format, &converted).iter().zip(&tools) {
            assert_eq!(
                strict_violations(schema),
                Vec::<String>::new(),
                "{format} {}: {schema}",
                tool.name
            );
        }
    }
    // The checker is not vacuous: each derived schema breaks the rules.
    for tool in &tools {
        assert!(
            !strict_violations(&tool.parameters).is_empty(),
            "{}",
            tool.name
        );
    }
}

/// A root enum and every nested construct: valid 2020-12 schemas in every
/// JSON Schema format, and no `oneOf` left in any OpenAI format.
#[test]
fn no_one_of_reaches_openai() {
    let mut tools: Vec<ToolDefinition> = root_enums();
    tools.extend(form());
    tools.extend(expr());
    for format in [
        ProviderFormat::OpenAiChat(Strict::Off),
        ProviderFormat::OpenAiChat(Strict::On),
        ProviderFormat::OpenAiResponses(Strict::Off),
        ProviderFormat::OpenAiResponses(Strict::On),
    ] {
        let converted = format.definitions(&tools);
        for (schema, tool) in schemas(format, &converted).iter().zip(&tools) {
            assert!(
                !schema.to_string().contains("\"oneOf\""),
                "{format} {}",
                tool.name
            );
            assert_eq!(schema["type"], "object");
            assert!(schema.get("anyOf").is_none());
        }
    }
}
