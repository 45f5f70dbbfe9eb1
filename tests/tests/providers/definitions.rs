//! Golden tests of the tool-definition formats (`tool_core::providers`): the
//! exact JSON each provider format writes for a small set of derived
//! parameter structs, the exact diagnostics (tool, path, message) of what a
//! format dropped or changed, each provider's tool-name rule, and checks
//! with a real JSON Schema validator (the `jsonschema` crate, draft 2020-12):
//! every strict and every non-legacy schema is a valid 2020-12 schema, and
//! the strict schema accepts what parse accepts.
//!
//! Provider shapes these goldens follow (each test cites its own):
//! - OpenAI Chat Completions `tools[]`: `openai/openai-openapi`, `openapi.yaml`
//!   (createChatCompletion, example "Functions"), and
//!   <https://platform.openai.com/docs/guides/function-calling>.
//! - OpenAI Responses `tools[]`: the same guide (flat `{"type":"function","name",..,"strict"}`).
//! - Anthropic `tools[]`: <https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use>.
//! - Gemini `functionDeclarations`: <https://ai.google.dev/gemini-api/docs/thought-signatures>
//!   (the `get_current_temperature` declaration) and the API reference
//!   <https://ai.google.dev/api/caching#FunctionDeclaration>.
//! - MCP `tools/list`: `modelcontextprotocol/modelcontextprotocol`,
//!   `docs/specification/2025-11-25/server/tools.mdx`.

use crate::support::adapter_notes::{LEGACY_CLOSED, LEGACY_OPTIONAL, OPTIONAL_TO_NULLABLE};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use tests::wire::assert_json;
use tests::wire::{definition, diagnostics};
use tool_core::providers::gemini::Dialect;
use tool_core::providers::{
    Converted, Diagnostic, NameRule, ProviderFormat, Strict, anthropic, gemini, mcp, openai_chat,
    openai_responses,
};
use tool_core::{Content, Tool, ToolDefinition, ToolOutput, ToolParams, tool};

// ---------------------------------------------------------------------------
// The parameter structs under test
// ---------------------------------------------------------------------------

/// Where to look
#[derive(ToolParams, Debug)]
pub(crate) struct Place {
    /// City name
    city: String,
    zip: Option<String>,
}

/// Temperature unit
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "lowercase")]
pub(crate) enum Unit {
    Celsius,
    Fahrenheit,
}

// One field of each kind: a required string, an optional integer with a
// minimum, a string with `max_length`, a defaulted field, a nested struct, a
// `Vec<Option<u8>>` and a unit enum. (Plain comments: a doc comment would
// become the schema's description.)
#[derive(ToolParams, Debug)]
pub(crate) struct ForecastParams {
    /// What to look for
    query: String,
    #[param(min = 1)]
    days: Option<u8>,
    #[param(max_length = 10)]
    label: String,
    #[param(default = 3)]
    retries: u8,
    place: Place,
    readings: Vec<Option<u8>>,
    unit: Unit,
}

// A map field: no strict form, no OpenAPI form for its values.
#[derive(ToolParams, Debug)]
pub(crate) struct CountsParams {
    counts: BTreeMap<String, u32>,
}

// A value of any type: no strict form, no OpenAPI type.
#[derive(ToolParams, Debug)]
pub(crate) struct PayloadParams {
    payload: Value,
}

/// The definition the registry would give `tool`.
fn definition_of(tool: &impl Tool) -> ToolDefinition {
    definition(tool.name(), tool.description(), tool.parameters())
}

fn forecast() -> Vec<ToolDefinition> {
    vec![definition(
        "forecast",
        "Forecast the weather",
        ForecastParams::json_schema(),
    )]
}

fn counts_and_payload() -> Vec<ToolDefinition> {
    vec![
        definition("count", "Count things", CountsParams::json_schema()),
        definition("store", "Store a value", PayloadParams::json_schema()),
    ]
}

/// One format's conversion of `forecast()`: exactly `value`, exactly
/// `expected` as diagnostics, and the same from `format`.
#[track_caller]
fn assert_forecast_format(
    format: ProviderFormat,
    converted: Converted,
    value: Value,
    expected: Vec<(&str, &str, &str)>,
) {
    assert_json(&converted.value, &value);
    assert_eq!(diagnostics(&converted), expected);
    assert_eq!(format.definitions(&forecast()), converted, "{format}");
}

/// The tool entries a format wrote, in order: Gemini's sit under
/// `functionDeclarations`.
fn entries(format: ProviderFormat, converted: &Converted) -> &Vec<Value> {
    match format {
        ProviderFormat::Gemini(_) => &converted.value["functionDeclarations"],
        _ => &converted.value,
    }
    .as_array()
    .unwrap()
}

/// The object of an entry holding the name and the schema: Chat
/// Completions nest it in `function`.
fn function(format: ProviderFormat, entry: &Value) -> &Value {
    match format {
        ProviderFormat::OpenAiChat(_) => &entry["function"],
        _ => entry,
    }
}

const NOT_STRICT: &str = "sent with \"strict\": false and its schema unchanged: the schema cannot be strict (see the other diagnostics)";

// ---------------------------------------------------------------------------
// The schemas every format starts from
// ---------------------------------------------------------------------------

fn forecast_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"description": "What to look for", "type": "string"},
            "days": {"type": "integer", "minimum": 1, "maximum": 255},
            "label": {"type": "string", "maxLength": 10},
            "retries": {"type": "integer", "minimum": 0, "maximum": 255, "default": 3},
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
                    {"type": "integer", "minimum": 0, "maximum": 255},
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
    })
}

/// The strict form (OpenAI Chat Completions and Responses alike): every
/// property required, the optional ones `anyOf [T, null]`, `maxLength` and
/// `default` gone and said in the description instead (the bounds stay, so
/// they are not said), every object closed.
fn forecast_strict_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"description": "What to look for", "type": "string"},
            "days": {"anyOf": [
                {"type": "integer", "minimum": 1, "maximum": 255},
                {"type": "null"},
            ]},
            "label": {"type": "string", "description": "At most 10 characters."},
            "retries": {"anyOf": [
                {"type": "integer", "minimum": 0, "maximum": 255, "description": "Default: 3."},
                {"type": "null"},
            ]},
            "place": {
                "description": "Where to look",
                "type": "object",
                "properties": {
                    "city": {"description": "City name", "type": "string"},
                    "zip": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                },
                "required": ["city", "zip"],
                "additionalProperties": false,
            },
            "readings": {
                "type": "array",
                "items": {"anyOf": [
                    {"type": "integer", "minimum": 0, "maximum": 255},
                    {"type": "null"},
                ]},
            },
            "unit": {
                "description": "Temperature unit",
                "type": "string",
                "enum": ["celsius", "fahrenheit"],
            },
        },
        "required": ["query", "days", "label", "retries", "place", "readings", "unit"],
        "additionalProperties": false,
    })
}

fn forecast_strict_diagnostics() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        ("forecast", "/properties/days", OPTIONAL_TO_NULLABLE),
        (
            "forecast",
            "/properties/label/maxLength",
            "dropped: strict mode does not accept `maxLength` (parse still enforces it)",
        ),
        (
            "forecast",
            "/properties/label/description",
            "changed: says what strict mode dropped, for the model: \"At most 10 characters.\"",
        ),
        (
            "forecast",
            "/properties/retries/default",
            "dropped: strict mode does not accept `default` (parse still fills the default in)",
        ),
        (
            "forecast",
            "/properties/retries/description",
            "changed: says what strict mode dropped, for the model: \"Default: 3.\"",
        ),
        ("forecast", "/properties/retries", OPTIONAL_TO_NULLABLE),
        (
            "forecast",
            "/properties/place/properties/zip",
            OPTIONAL_TO_NULLABLE,
        ),
    ]
}

#[test]
fn the_derived_schema_every_format_starts_from() {
    assert_json(&ForecastParams::json_schema(), &forecast_schema());
    let neutral = ProviderFormat::Neutral.definitions(&forecast());
    assert_json(
        &neutral.value,
        &json!([{
            "name": "forecast",
            "description": "Forecast the weather",
            "parameters": forecast_schema(),
        }]),
    );
    assert!(neutral.diagnostics.is_empty());
}

// ---------------------------------------------------------------------------
// Each format, exactly
// ---------------------------------------------------------------------------

/// Chat Completions `tools[]` entry, as in openai/openai-openapi `openapi.yaml`
/// (createChatCompletion, example "Functions"):
/// `{"type": "function", "function": {"name", "description", "parameters"}}`.
#[test]
fn openai_chat_completions() {
    assert_forecast_format(
        ProviderFormat::OpenAiChat(Strict::Off),
        openai_chat::tools(&forecast(), Strict::Off),
        json!([{
            "type": "function",
            "function": {
                "name": "forecast",
                "description": "Forecast the weather",
                "parameters": forecast_schema(),
            },
        }]),
        vec![],
    );
}

/// Chat Completions with `"strict": true` inside `function` (the function
/// calling guide, "Strict mode").
#[test]
fn openai_chat_completions_strict() {
    assert_forecast_format(
        ProviderFormat::OpenAiChat(Strict::On),
        openai_chat::tools(&forecast(), Strict::On),
        json!([{
            "type": "function",
            "function": {
                "name": "forecast",
                "description": "Forecast the weather",
                "parameters": forecast_strict_schema(),
                "strict": true,
            },
        }]),
        forecast_strict_diagnostics(),
    );
}

/// Responses `tools[]`: flat, `{"type": "function", "name", "description",
/// "parameters", "strict"}` (function calling guide, Responses tab).
#[test]
fn openai_responses_non_strict() {
    assert_forecast_format(
        ProviderFormat::OpenAiResponses(Strict::Off),
        openai_responses::tools(&forecast(), Strict::Off),
        json!([{
            "type": "function",
            "name": "forecast",
            "description": "Forecast the weather",
            "parameters": forecast_schema(),
            "strict": false,
        }]),
        vec![],
    );
}

#[test]
fn openai_responses_strict() {
    assert_forecast_format(
        ProviderFormat::OpenAiResponses(Strict::On),
        openai_responses::tools(&forecast(), Strict::On),
        json!([{
            "type": "function",
            "name": "forecast",
            "description": "Forecast the weather",
            "parameters": forecast_strict_schema(),
            "strict": true,
        }]),
        forecast_strict_diagnostics(),
    );
}

/// Anthropic keeps the full schema: `{"name", "description", "input_schema"}`.
#[test]
fn anthropic() {
    assert_forecast_format(
        ProviderFormat::Anthropic(Strict::Off),
        anthropic::tools(&forecast(), Strict::Off),
        json!([{
            "name": "forecast",
            "description": "Forecast the weather",
            "input_schema": forecast_schema(),
        }]),
        vec![],
    );
}

/// Gemini with `parametersJsonSchema` (JSON Schema, kept as it is).
#[test]
fn gemini_json_schema() {
    assert_forecast_format(
        ProviderFormat::Gemini(Dialect::JsonSchema),
        gemini::tools(&forecast(), Dialect::JsonSchema),
        json!({"functionDeclarations": [{
            "name": "forecast",
            "description": "Forecast the weather",
            "parametersJsonSchema": forecast_schema(),
        }]}),
        vec![],
    );
}

/// Gemini's legacy `parameters` (its OpenAPI 3.0 subset): no
/// `additionalProperties`, "or null" as `"nullable": true`, optional fields
/// nullable; `maxLength` and `default` are in the subset and stay.
#[test]
fn gemini_legacy() {
    assert_forecast_format(
        ProviderFormat::Gemini(Dialect::OpenApi),
        gemini::tools(&forecast(), Dialect::OpenApi),
        json!({"functionDeclarations": [{
            "name": "forecast",
            "description": "Forecast the weather",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"description": "What to look for", "type": "string"},
                    "days": {"type": "integer", "minimum": 1, "maximum": 255, "nullable": true},
                    "label": {"type": "string", "maxLength": 10},
                    "retries": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": 255,
                        "default": 3,
                        "nullable": true,
                    },
                    "place": {
                        "description": "Where to look",
                        "type": "object",
                        "properties": {
                            "city": {"description": "City name", "type": "string"},
                            "zip": {"type": "string", "nullable": true},
                        },
                        "required": ["city"],
                    },
                    "readings": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 0, "maximum": 255, "nullable": true},
                    },
                    "unit": {
                        "description": "Temperature unit",
                        "type": "string",
                        "enum": ["celsius", "fahrenheit"],
                    },
                },
                "required": ["query", "label", "place", "readings", "unit"],
            },
        }]}),
        vec![
            ("forecast", "/additionalProperties", LEGACY_CLOSED),
            ("forecast", "/properties/days", LEGACY_OPTIONAL),
            ("forecast", "/properties/retries", LEGACY_OPTIONAL),
            (
                "forecast",
                "/properties/place/additionalProperties",
                LEGACY_CLOSED,
            ),
            (
                "forecast",
                "/properties/place/properties/zip",
                LEGACY_OPTIONAL,
            ),
            (
                "forecast",
                "/properties/readings/items/anyOf",
                "changed: \"or null\" written as `\"nullable\": true`",
            ),
        ],
    );
}

/// MCP `tools/list` entries: `{"name", "description", "inputSchema"}`.
#[test]
fn mcp() {
    assert_forecast_format(
        ProviderFormat::Mcp,
        mcp::tools(&forecast()),
        json!([{
            "name": "forecast",
            "description": "Forecast the weather",
            "inputSchema": forecast_schema(),
        }]),
        vec![],
    );
}

#[test]
fn mcp_reports_an_input_schema_that_is_not_an_object() {
    let tools = vec![definition(
        "odd",
        "Not an object",
        json!({"type": "string"}),
    )];
    let converted = mcp::tools(&tools);
    assert_json(
        &converted.value,
        &json!([{"name": "odd", "description": "Not an object", "inputSchema": {"type": "string"}}]),
    );
    assert_eq!(
        diagnostics(&converted),
        vec![(
            "odd",
            "/type",
            "MCP wants an inputSchema of type \"object\"; sent as it is"
        )]
    );
}

#[test]
fn format_names_round_trip() {
    let names: Vec<&str> = ProviderFormat::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(
        names,
        [
            "neutral",
            "openai",
            "openai-strict",
            "openai-responses",
            "openai-responses-strict",
            "anthropic",
            "anthropic-strict",
            "gemini",
            "gemini-legacy",
            "mcp",
        ]
    );
    for format in ProviderFormat::ALL {
        assert_eq!(format.name().parse::<ProviderFormat>(), Ok(format));
        assert_eq!(format.to_string(), format.name());
    }
    assert_eq!(
        "claude".parse::<ProviderFormat>().unwrap_err(),
        "unknown format 'claude'; expected one of: neutral, openai, openai-strict, \
         openai-responses, openai-responses-strict, anthropic, anthropic-strict, gemini, \
         gemini-legacy, mcp"
    );
}

// ---------------------------------------------------------------------------
// Against the providers' own documented definitions
// ---------------------------------------------------------------------------

/// The unit of temperature
#[derive(ToolParams, Debug)]
#[param(rename_all = "lowercase")]
enum TemperatureUnit {
    Celsius,
    Fahrenheit,
}

/// Get the current weather in a given location
#[tool]
async fn get_weather(
    #[param(description = "The city and state, e.g. San Francisco, CA")] location: String,
    #[param(description = "The unit of temperature, either 'celsius' or 'fahrenheit'")]
    unit: Option<TemperatureUnit>,
) -> String {
    let unit = match unit {
        Some(TemperatureUnit::Fahrenheit) => "fahrenheit",
        _ => "celsius",
    };
    format!("{location}: 15 degrees {unit}")
}

/// Gets the current temperature for a given location.
#[tool]
async fn get_current_temperature(
    #[param(description = "The city name, e.g. San Francisco")] location: String,
) -> ToolOutput<()> {
    ToolOutput::new(vec![Content::text(format!("{location}: 15C"))])
}

fn weather_definitions() -> Vec<ToolDefinition> {
    vec![
        definition_of(&GetWeatherTool),
        definition_of(&GetCurrentTemperatureTool),
    ]
}

/// Every definition above: the forecast, the map and the value of any type,
/// and the documented weather tools.
fn every_definition() -> Vec<ToolDefinition> {
    let mut tools = forecast();
    tools.extend(counts_and_payload());
    tools.extend(weather_definitions());
    tools
}

/// Anthropic's "Example simple tool definition"
/// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use>),
/// written as a `#[tool]` function: ours is the same definition, closed with
/// `"additionalProperties": false` (parse drops undeclared keys).
#[test]
fn anthropic_documented_get_weather_definition() {
    let documented = json!({
        "name": "get_weather",
        "description": "Get the current weather in a given location",
        "input_schema": {
            "type": "object",
            "properties": {
                "location": {
                    "type": "string",
                    "description": "The city and state, e.g. San Francisco, CA"
                },
                "unit": {
                    "type": "string",
                    "enum": ["celsius", "fahrenheit"],
                    "description": "The unit of temperature, either 'celsius' or 'fahrenheit'"
                }
            },
            "required": ["location"]
        }
    });
    let mut ours = anthropic::tools(&weather_definitions()[..1], Strict::Off).value[0].clone();
    assert_eq!(
        ours["input_schema"]
            .as_object_mut()
            .unwrap()
            .remove("additionalProperties"),
        Some(json!(false))
    );
    assert_eq!(ours, documented);
}

/// Gemini's `get_current_temperature` declaration from
/// <https://ai.google.dev/gemini-api/docs/thought-signatures> (parallel
/// function calling example): the legacy form is exactly the documented
/// one, and the JSON Schema form only adds `"additionalProperties": false`.
#[test]
fn gemini_documented_get_current_temperature_declaration() {
    let documented = json!({
        "name": "get_current_temperature",
        "description": "Gets the current temperature for a given location.",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {
                    "type": "string",
                    "description": "The city name, e.g. San Francisco"
                }
            },
            "required": ["location"]
        }
    });
    let tools = &weather_definitions()[1..];
    let legacy = gemini::tools(tools, Dialect::OpenApi);
    assert_eq!(legacy.value, json!({"functionDeclarations": [documented]}));
    assert_eq!(
        diagnostics(&legacy),
        vec![(
            "get_current_temperature",
            "/additionalProperties",
            LEGACY_CLOSED
        )]
    );

    let current = gemini::tools(tools, Dialect::JsonSchema);
    let mut expected = documented["parameters"].clone();
    expected["additionalProperties"] = json!(false);
    assert_eq!(
        current.value["functionDeclarations"][0]["parametersJsonSchema"],
        expected
    );
    assert!(current.diagnostics.is_empty());
}

// ---------------------------------------------------------------------------
// What cannot be strict, or has no OpenAPI form
// ---------------------------------------------------------------------------

#[test]
fn a_map_and_a_value_of_any_type_make_the_tool_non_strict() {
    let count_schema = json!({
        "type": "object",
        "properties": {
            "counts": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4294967295u64},
            },
        },
        "required": ["counts"],
        "additionalProperties": false,
    });
    let store_schema = json!({
        "type": "object",
        "properties": {"payload": {}},
        "required": ["payload"],
        "additionalProperties": false,
    });
    assert_json(&CountsParams::json_schema(), &count_schema);
    assert_json(&PayloadParams::json_schema(), &store_schema);

    let expected_diagnostics = vec![
        (
            "count",
            "/properties/counts/additionalProperties",
            "a map (an object with any keys) cannot be strict: strict mode needs every key listed",
        ),
        ("count", "", NOT_STRICT),
        (
            "store",
            "/properties/payload",
            "a value of any type cannot be strict: strict mode needs a type for every value",
        ),
        ("store", "", NOT_STRICT),
    ];

    // Chat Completions: sent non-strict, schema unchanged.
    let chat = openai_chat::tools(&counts_and_payload(), Strict::On);
    assert_json(
        &chat.value,
        &json!([
            {"type": "function", "function": {
                "name": "count",
                "description": "Count things",
                "parameters": count_schema,
                "strict": false,
            }},
            {"type": "function", "function": {
                "name": "store",
                "description": "Store a value",
                "parameters": store_schema,
                "strict": false,
            }},
        ]),
    );
    assert_eq!(diagnostics(&chat), expected_diagnostics);

    // Responses: the same.
    let responses = openai_responses::tools(&counts_and_payload(), Strict::On);
    assert_json(
        &responses.value,
        &json!([
            {
                "type": "function",
                "name": "count",
                "description": "Count things",
                "parameters": count_schema,
                "strict": false,
            },
            {
                "type": "function",
                "name": "store",
                "description": "Store a value",
                "parameters": store_schema,
                "strict": false,
            },
        ]),
    );
    assert_eq!(diagnostics(&responses), expected_diagnostics);

    // Formats that take JSON Schema as it is have nothing to say.
    for format in [
        ProviderFormat::OpenAiChat(Strict::Off),
        ProviderFormat::OpenAiResponses(Strict::Off),
        ProviderFormat::Anthropic(Strict::Off),
        ProviderFormat::Gemini(Dialect::JsonSchema),
        ProviderFormat::Mcp,
    ] {
        assert_eq!(
            format.definitions(&counts_and_payload()).diagnostics,
            Vec::<Diagnostic>::new(),
            "{format}"
        );
    }
}

#[test]
fn a_map_and_a_value_of_any_type_in_gemini_legacy() {
    let converted = gemini::tools(&counts_and_payload(), Dialect::OpenApi);
    assert_json(
        &converted.value,
        &json!({"functionDeclarations": [
            {
                "name": "count",
                "description": "Count things",
                "parameters": {
                    "type": "object",
                    "properties": {"counts": {"type": "object"}},
                    "required": ["counts"],
                },
            },
            {
                "name": "store",
                "description": "Store a value",
                "parameters": {
                    "type": "object",
                    "properties": {"payload": {}},
                    "required": ["payload"],
                },
            },
        ]}),
    );
    assert_eq!(
        diagnostics(&converted),
        vec![
            ("count", "/additionalProperties", LEGACY_CLOSED),
            (
                "count",
                "/properties/counts/additionalProperties",
                "dropped: OpenAPI 3.0 (Gemini) cannot describe a map's values; parse still checks each one",
            ),
            (
                "count",
                "/properties/counts",
                "Gemini refuses an object without properties (\"properties: should be non-empty for OBJECT type\"); declare this tool with the `gemini` format (parametersJsonSchema) instead",
            ),
            ("store", "/additionalProperties", LEGACY_CLOSED),
            (
                "store",
                "/properties/payload",
                "a value of any type has no OpenAPI form (Gemini wants a type); left without one",
            ),
        ]
    );
}

/// Keywords outside each subset, in a hand-written schema (a `DynamicTool`
/// may carry any): `$schema`, `const`, exclusive bounds, a type array,
/// `uniqueItems`.
#[test]
fn hand_written_keywords_in_strict_and_legacy() {
    let tools = vec![definition(
        "tune",
        "Tune it",
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "mode": {"const": "fast"},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                "note": {"type": ["string", "null"]},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            },
            "required": ["mode", "ratio", "note", "tags"],
            "additionalProperties": false,
        }),
    )];

    // `const` is not on strict mode's list: a one-value `enum`, typed.
    // `uniqueItems` is dropped, and said in the description.
    let strict = openai_chat::tools(&tools, Strict::On);
    assert_json(
        &strict.value[0]["function"]["parameters"],
        &json!({
            "type": "object",
            "properties": {
                "mode": {"type": "string", "enum": ["fast"]},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                "note": {"type": ["string", "null"]},
                "tags": {"type": "array", "items": {"type": "string"}, "description": "No item twice."},
            },
            "required": ["mode", "ratio", "note", "tags"],
            "additionalProperties": false,
        }),
    );
    assert_eq!(strict.value[0]["function"]["strict"], json!(true));
    assert_eq!(
        diagnostics(&strict),
        vec![
            (
                "tune",
                "/$schema",
                "dropped: strict mode does not accept `$schema`"
            ),
            (
                "tune",
                "/properties/mode/const",
                "changed: `const` written as a one-value `enum`"
            ),
            (
                "tune",
                "/properties/tags/uniqueItems",
                "dropped: strict mode does not accept `uniqueItems` (parse still enforces it)"
            ),
            (
                "tune",
                "/properties/tags/description",
                "changed: says what strict mode dropped, for the model: \"No item twice.\""
            ),
        ]
    );

    let legacy = gemini::tools(&tools, Dialect::OpenApi);
    assert_json(
        &legacy.value["functionDeclarations"][0]["parameters"],
        &json!({
            "type": "object",
            "properties": {
                "mode": {"enum": ["fast"]},
                "ratio": {"type": "number", "description": "More than 0. Less than 1."},
                "note": {"type": "string", "nullable": true},
                "tags": {"type": "array", "items": {"type": "string"}, "description": "No item twice."},
            },
            "required": ["mode", "ratio", "note", "tags"],
        }),
    );
    assert_eq!(
        diagnostics(&legacy),
        vec![
            (
                "tune",
                "/$schema",
                "dropped: Gemini's OpenAPI subset has no `$schema`"
            ),
            ("tune", "/additionalProperties", LEGACY_CLOSED),
            (
                "tune",
                "/properties/mode/const",
                "changed: `const` written as a one-value `enum`"
            ),
            (
                "tune",
                "/properties/ratio/exclusiveMinimum",
                "dropped: Gemini's OpenAPI subset has no `exclusiveMinimum` (parse still enforces it)"
            ),
            (
                "tune",
                "/properties/ratio/exclusiveMaximum",
                "dropped: Gemini's OpenAPI subset has no `exclusiveMaximum` (parse still enforces it)"
            ),
            (
                "tune",
                "/properties/ratio/description",
                "changed: says what Gemini's OpenAPI subset dropped, for the model: \"More than 0. Less than 1.\""
            ),
            (
                "tune",
                "/properties/note/type",
                "changed: a type array written as one type (and `nullable`)"
            ),
            (
                "tune",
                "/properties/tags/uniqueItems",
                "dropped: Gemini's OpenAPI subset has no `uniqueItems` (parse still enforces it)"
            ),
            (
                "tune",
                "/properties/tags/description",
                "changed: says what Gemini's OpenAPI subset dropped, for the model: \"No item twice.\""
            ),
        ]
    );
}

/// Walks a legacy schema and returns the JSON Pointer of every keyword
/// Gemini's OpenAPI subset does not have.
fn legacy_violations(schema: &Value, path: &str, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                let at = format!("{path}/{key}");
                match key.as_str() {
                    "additionalProperties"
                    | "$schema"
                    | "const"
                    | "exclusiveMinimum"
                    | "exclusiveMaximum" => found.push(at.clone()),
                    "type" if !value.is_string() => found.push(at.clone()),
                    "anyOf"
                        if value
                            .as_array()
                            .is_some_and(|b| b.iter().any(|b| b["type"] == "null")) =>
                    {
                        found.push(at.clone())
                    }
                    _ => {}
                }
                if key == "properties" {
                    for (name, property) in value.as_object().into_iter().flatten() {
                        legacy_violations(property, &format!("{at}/{name}"), found);
                    }
                } else if key != "enum" && key != "required" && key != "default" {
                    legacy_violations(value, &at, found);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                legacy_violations(item, &format!("{path}/{i}"), found);
            }
        }
        _ => {}
    }
}

#[test]
fn legacy_output_keeps_to_the_openapi_subset() {
    let legacy = gemini::tools(&every_definition(), Dialect::OpenApi);
    for declaration in legacy.value["functionDeclarations"].as_array().unwrap() {
        let mut found = Vec::new();
        legacy_violations(&declaration["parameters"], "", &mut found);
        assert_eq!(found, Vec::<String>::new(), "{}", declaration["name"]);
    }
}

/// Gemini's legacy `parameters` refuses an OBJECT schema without
/// properties: `GenerateContentRequest.tools[0].function_declarations[0]
/// .parameters.properties: should be non-empty for OBJECT type` (reported
/// in agno-agi/agno#2112, vercel/ai#3371, pipecat-ai/pipecat-flows#110; for
/// a nested record, googleapis/js-genai#708). A tool without parameters
/// (`#[tool] async fn get_current_time()`), the default `DynamicTool`
/// schema `{"type":"object"}`, and a map field could each come out as
/// exactly that; every such object sent must come with a diagnostic saying
/// Gemini will refuse the request.
#[test]
fn gemini_legacy_never_sends_an_object_without_properties_unreported() {
    /// Returns the current server time
    #[tool]
    async fn get_current_time() -> String {
        "12:00".into()
    }
    let mut tools = vec![
        definition_of(&GetCurrentTimeTool),
        definition("dynamic", "A DynamicTool", json!({"type": "object"})),
    ];
    tools.extend(counts_and_payload());
    let legacy = gemini::tools(&tools, Dialect::OpenApi);

    fn empty_objects(schema: &Value, path: &str, found: &mut Vec<String>) {
        if schema["type"] == "object"
            && schema["properties"]
                .as_object()
                .is_none_or(|properties| properties.is_empty())
        {
            found.push(path.to_owned());
        }
        for (name, property) in schema["properties"].as_object().into_iter().flatten() {
            empty_objects(property, &format!("{path}/properties/{name}"), found);
        }
        if schema.get("items").is_some() {
            empty_objects(&schema["items"], &format!("{path}/items"), found);
        }
    }
    let mut every_empty_object = Vec::new();
    for (declaration, tool) in legacy.value["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&tools)
    {
        let mut found = Vec::new();
        empty_objects(&declaration["parameters"], "", &mut found);
        every_empty_object.extend(found.iter().map(|path| (tool.name.clone(), path.clone())));
        for path in found {
            assert!(
                legacy
                    .diagnostics
                    .iter()
                    .any(|d| d.tool == tool.name && d.path == path),
                "{}: `{path}` is an OBJECT without properties, which Gemini refuses, \
                 and no diagnostic says so: {}",
                tool.name,
                declaration["parameters"]
            );
        }
    }
    // The walk is not vacuous: the map field is an OBJECT without
    // properties (the tool without parameters and the `DynamicTool` are
    // declared without `parameters`, so have none to refuse).
    assert_eq!(
        every_empty_object,
        [("count".to_owned(), "/properties/counts".to_owned())]
    );
    // A tool declared without `parameters` is not told what its schema's
    // conversion would have dropped: none of it is sent.
    let said: Vec<(&str, &str)> = legacy
        .diagnostics
        .iter()
        .filter(|d| d.tool == "get_current_time" || d.tool == "dynamic")
        .map(|d| (d.tool.as_str(), d.path.as_str()))
        .collect();
    assert_eq!(said, [("dynamic", "")]);
}

// ---------------------------------------------------------------------------
// Tool names
// ---------------------------------------------------------------------------

fn refused(name: &str, message: &str) -> (String, String, String) {
    (
        name.to_owned(),
        String::new(),
        format!("name refused: {message}"),
    )
}

fn name_diagnostics(converted: &Converted) -> Vec<(String, String, String)> {
    converted
        .diagnostics
        .iter()
        .map(|d| (d.tool.clone(), d.path.clone(), d.message.clone()))
        .collect()
}

/// OpenAI: `^[a-zA-Z0-9_-]{1,64}$` (openai-python `FunctionDefinition.name`:
/// "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
/// length of 64"). Anthropic: `^[a-zA-Z0-9_-]{1,128}$` (the API's own
/// error, `tools.0.custom.name: String should match pattern ...`). Gemini:
/// letters, digits, `_`, `.`, `:`, `-`, at most 64, starting with a letter
/// or `_` (Gemini and Vertex `FunctionDeclaration.name`). MCP 2025-11-25:
/// 1 to 128 of letters, digits, `_`, `-`, `.`.
#[test]
fn tool_names_checked_against_each_providers_rule() {
    let names = [
        "read_file".to_owned(),
        "read.file".to_owned(),
        "ns:read".to_owned(),
        "1read".to_owned(),
        "a".repeat(64),
        "b".repeat(65),
        "c".repeat(128),
        "d".repeat(129),
        "wetter_köln".to_owned(),
        String::new(),
    ];
    let tools: Vec<ToolDefinition> = names
        .iter()
        .map(|name| definition(name, "d", json!({"type": "object", "properties": {}})))
        .collect();
    let b65 = "b".repeat(65);
    let c128 = "c".repeat(128);
    let d129 = "d".repeat(129);

    let openai = vec![
        refused(
            "read.file",
            "OpenAI allows only ASCII letters, digits and `_-` in tool names, not '.'",
        ),
        refused(
            "ns:read",
            "OpenAI allows only ASCII letters, digits and `_-` in tool names, not ':'",
        ),
        refused(
            &b65,
            "OpenAI allows tool names of at most 64 characters; this one has 65",
        ),
        refused(
            &c128,
            "OpenAI allows tool names of at most 64 characters; this one has 128",
        ),
        refused(
            &d129,
            "OpenAI allows tool names of at most 64 characters; this one has 129",
        ),
        refused(
            "wetter_köln",
            "OpenAI allows only ASCII letters, digits and `_-` in tool names, not 'ö'",
        ),
        refused("", "OpenAI needs a tool name of at least one character"),
    ];
    for format in [
        ProviderFormat::OpenAiChat(Strict::Off),
        ProviderFormat::OpenAiChat(Strict::On),
        ProviderFormat::OpenAiResponses(Strict::Off),
        ProviderFormat::OpenAiResponses(Strict::On),
    ] {
        assert_eq!(
            name_diagnostics(&format.definitions(&tools)),
            openai,
            "{format}"
        );
    }

    assert_eq!(
        name_diagnostics(&ProviderFormat::Anthropic(Strict::Off).definitions(&tools)),
        vec![
            refused(
                "read.file",
                "Anthropic allows only ASCII letters, digits and `_-` in tool names, not '.'",
            ),
            refused(
                "ns:read",
                "Anthropic allows only ASCII letters, digits and `_-` in tool names, not ':'",
            ),
            refused(
                &b65,
                "Anthropic allows tool names of at most 64 characters; this one has 65",
            ),
            refused(
                &c128,
                "Anthropic allows tool names of at most 64 characters; this one has 128",
            ),
            refused(
                &d129,
                "Anthropic allows tool names of at most 64 characters; this one has 129",
            ),
            refused(
                "wetter_köln",
                "Anthropic allows only ASCII letters, digits and `_-` in tool names, not 'ö'",
            ),
            refused("", "Anthropic needs a tool name of at least one character"),
        ]
    );

    // The schema here has no `additionalProperties`, so the legacy format
    // has only the names to report.
    let gemini = vec![
        refused("1read", "Gemini tool names must start with a letter or `_`"),
        refused(
            &b65,
            "Gemini allows tool names of at most 64 characters; this one has 65",
        ),
        refused(
            &c128,
            "Gemini allows tool names of at most 64 characters; this one has 128",
        ),
        refused(
            &d129,
            "Gemini allows tool names of at most 64 characters; this one has 129",
        ),
        refused(
            "wetter_köln",
            "Gemini allows only ASCII letters, digits and `_.:-` in tool names, not 'ö'",
        ),
        refused("", "Gemini needs a tool name of at least one character"),
    ];
    for format in [
        ProviderFormat::Gemini(Dialect::JsonSchema),
        ProviderFormat::Gemini(Dialect::OpenApi),
    ] {
        assert_eq!(
            name_diagnostics(&format.definitions(&tools)),
            gemini,
            "{format}"
        );
    }

    assert_eq!(
        name_diagnostics(&ProviderFormat::Mcp.definitions(&tools)),
        vec![
            refused(
                "ns:read",
                "MCP allows only ASCII letters, digits and `_-.` in tool names, not ':'",
            ),
            refused(
                &d129,
                "MCP allows tool names of at most 128 characters; this one has 129",
            ),
            refused(
                "wetter_köln",
                "MCP allows only ASCII letters, digits and `_-.` in tool names, not 'ö'",
            ),
            refused("", "MCP needs a tool name of at least one character"),
        ]
    );

    // Names are reported, never rewritten: the model must call the tool by
    // the name it was given.
    for format in ProviderFormat::ALL {
        let converted = format.definitions(&tools);
        let written: Vec<&str> = entries(format, &converted)
            .iter()
            .map(|entry| function(format, entry)["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            written,
            names.iter().map(String::as_str).collect::<Vec<_>>()
        );
    }
    // The neutral format checks no provider's rule.
    assert!(
        ProviderFormat::Neutral
            .definitions(&tools)
            .diagnostics
            .is_empty()
    );
}

#[test]
fn name_rules_directly() {
    assert_eq!(NameRule::OPENAI.check("get_weather"), None);
    assert_eq!(NameRule::OPENAI.check(&"a".repeat(64)), None);
    assert_eq!(NameRule::ANTHROPIC.check(&"a".repeat(64)), None);
    assert_eq!(NameRule::GEMINI.check("_private.read:v2-x"), None);
    assert_eq!(NameRule::MCP.check("admin.tools.list"), None);
    assert_eq!(NameRule::MCP.check("DATA_EXPORT_v2"), None);
    assert_eq!(
        NameRule::OPENAI.check("read file"),
        Some("OpenAI allows only ASCII letters, digits and `_-` in tool names, not ' '".into())
    );
}

// ---------------------------------------------------------------------------
// Against a real JSON Schema validator
// ---------------------------------------------------------------------------

/// Every parameters schema of every format except the legacy Gemini one (an
/// OpenAPI subset, not JSON Schema), with where it came from.
fn json_schemas(tools: &[ToolDefinition]) -> Vec<(String, Value)> {
    let mut schemas = Vec::new();
    for format in ProviderFormat::ALL {
        if format == ProviderFormat::Gemini(Dialect::OpenApi) {
            continue;
        }
        let converted = format.definitions(tools);
        for (entry, tool) in entries(format, &converted).iter().zip(tools) {
            let function = function(format, entry);
            let schema = match format {
                ProviderFormat::Anthropic(_) => &function["input_schema"],
                ProviderFormat::Gemini(Dialect::JsonSchema) => &function["parametersJsonSchema"],
                ProviderFormat::Mcp => &function["inputSchema"],
                _ => &function["parameters"],
            };
            assert!(schema.is_object(), "{format} {}: no schema", tool.name);
            schemas.push((format!("{format} {}", tool.name), schema.clone()));
        }
    }
    schemas
}

#[test]
fn every_strict_and_non_legacy_schema_is_valid_2020_12() {
    let tools = every_definition();
    let schemas = json_schemas(&tools);
    assert_eq!(schemas.len(), 9 * tools.len());
    for (name, schema) in schemas {
        if let Err(error) = jsonschema::draft202012::meta::validate(&schema) {
            panic!("{name}: not a valid 2020-12 schema: {error}\n{schema}");
        }
        assert!(
            jsonschema::draft202012::new(&schema).is_ok(),
            "{name}: does not compile"
        );
    }
}

/// A value with every field of `ForecastParams` set, as strict mode writes
/// it.
fn every_field_set() -> Value {
    json!({
        "query": "rain",
        "days": 3,
        "label": "short",
        "retries": 2,
        "place": {"city": "Paris", "zip": "75001"},
        "readings": [1, null, 255],
        "unit": "celsius",
    })
}

/// Values a strict-mode model can write (every key present, none extra),
/// each with whether parse accepts it. The strict schema must accept every
/// value parse accepts, `null` for an optional field included.
fn strict_samples() -> Vec<(&'static str, Value, bool)> {
    let base = every_field_set();
    let with = |pointer: &str, value: Value| {
        let mut sample = base.clone();
        *sample.pointer_mut(pointer).unwrap() = value;
        sample
    };
    vec![
        ("every field set", base.clone(), true),
        (
            "null for the optional integer",
            with("/days", Value::Null),
            true,
        ),
        (
            "null for the defaulted field",
            with("/retries", Value::Null),
            true,
        ),
        (
            "null for the nested optional",
            with("/place/zip", Value::Null),
            true,
        ),
        ("an empty array", with("/readings", json!([])), true),
        (
            "nulls in the array",
            with("/readings", json!([null, null])),
            true,
        ),
        (
            "the other enum name",
            with("/unit", json!("fahrenheit")),
            true,
        ),
        (
            "a label at max_length",
            with("/label", json!("0123456789")),
            true,
        ),
        ("days below min", with("/days", json!(0)), false),
        ("days past u8", with("/days", json!(256)), false),
        ("a reading past u8", with("/readings", json!([256])), false),
        (
            "null for a required string",
            with("/query", Value::Null),
            false,
        ),
        ("a number for a string", with("/query", json!(7)), false),
        (
            "an unknown enum name",
            with("/unit", json!("kelvin")),
            false,
        ),
        (
            "null for the nested struct",
            with("/place", Value::Null),
            false,
        ),
        (
            "null for the nested required",
            with("/place/city", Value::Null),
            false,
        ),
    ]
}

#[test]
fn the_strict_schema_accepts_what_parse_accepts() {
    let strict =
        openai_chat::tools(&forecast(), Strict::On).value[0]["function"]["parameters"].clone();
    let validator = jsonschema::draft202012::new(&strict).expect("the strict schema compiles");
    for (what, sample, parse_accepts) in strict_samples() {
        assert_eq!(
            ForecastParams::parse(&sample).is_ok(),
            parse_accepts,
            "parse, {what}: {sample}"
        );
        assert_eq!(
            validator.is_valid(&sample),
            parse_accepts,
            "strict schema, {what}: {sample}"
        );
    }
    // `maxLength` was dropped (and reported): the strict schema lets a long
    // label through, parse still refuses it.
    let mut long = every_field_set();
    long["label"] = json!("01234567890");
    assert!(validator.is_valid(&long));
    assert_eq!(
        ForecastParams::parse(&long).unwrap_err().to_string(),
        "label: expected string of at most 10 characters, got 11"
    );
    // What strict mode never lets a model write anyway: a missing key (parse
    // reads it as absent) and an extra key (parse drops it).
    let mut missing = every_field_set();
    missing.as_object_mut().unwrap().remove("days");
    assert!(ForecastParams::parse(&missing).is_ok() && !validator.is_valid(&missing));
    let mut extra = every_field_set();
    extra["extra"] = json!(1);
    assert!(ForecastParams::parse(&extra).is_ok() && !validator.is_valid(&extra));
}

#[test]
fn the_neutral_schema_agrees_with_parse_on_the_same_samples() {
    // The schema every non-strict format sends: `null` is not `T`, so a
    // null for an optional field is the one documented leniency of parse.
    let neutral = ProviderFormat::Neutral.definitions(&forecast()).value[0]["parameters"].clone();
    let validator = jsonschema::draft202012::new(&neutral).unwrap();
    for (what, sample, parse_accepts) in strict_samples() {
        let null_for_optional = what.starts_with("null for the") && parse_accepts;
        assert_eq!(
            validator.is_valid(&sample),
            parse_accepts && !null_for_optional,
            "{what}: {sample}"
        );
    }
}
