//! Gemini function declarations, in either schema dialect.

use super::json_schema::const_as_enum;
use super::openapi::openapi_parameters;
use crate::model::ToolDefinition;
use crate::providers::common::{Api, convert_each};
use crate::providers::diagnostic::{Converted, Report};
use crate::providers::merge_root::{GEMINI_JSON_SCHEMA, GEMINI_OPENAPI, flatten_root};
use crate::providers::names::NameRule;
use serde_json::{Map, Value, json};

/// Which field of a `FunctionDeclaration` carries the parameters, and so
/// which schema language they are written in
/// (<https://ai.google.dev/api/caching#FunctionDeclaration>).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `parametersJsonSchema`: JSON Schema, kept but for an enum as the
    /// whole parameters (written as one object) and `const`, which Gemini
    /// does not list (a tag's `const` is written as a one-value `enum`).
    /// Gemini reads `oneOf` as `anyOf`, the same values for a tagged enum,
    /// and ignores what it does not know (`uniqueItems`, `pattern`,
    /// `maxProperties`): parse enforces those.
    JsonSchema,
    /// `parameters`, the legacy field: Gemini's subset of OpenAPI 3.0's
    /// Schema object (<https://ai.google.dev/api/caching#Schema>). It has no `additionalProperties`,
    /// `$ref`, `const`, `oneOf`, tuples, exclusive bounds or type arrays,
    /// and says `"nullable": true` where JSON Schema says "or null"; what
    /// is rewritten or dropped is reported. A tool without parameters is
    /// declared without `parameters`, which is how Gemini wants it.
    OpenApi,
}

/// Gemini's function declarations: at most 512 a request ("Maximum 512
/// function declarations can be provided.": `Tool.functionDeclarations` in
/// googleapis/js-genai, 2026-08; the API answers more with "At most 512
/// function declarations can be specified", google-gemini/gemini-cli#19083;
/// checked 2026-12-07).
const GEMINI: Api = Api::plain(NameRule::GEMINI).with_max_tools(
    512,
    "\"At most 512 function declarations can be specified\"",
);

/// The request's `tools` entry: `{"functionDeclarations":[{"name","description",<parameters>}]}`,
/// the parameters in the field and language `dialect` names.
///
/// Either way an enum as the whole parameters is written as one object:
/// "The schema must describe an object where the properties are the
/// parameters" (<https://ai.google.dev/api/caching#FunctionDeclaration>).
///
/// ```
/// use tool_core::providers::gemini::{self, Dialect};
/// use tool_core::ToolDefinition;
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}, "days": {"type": "integer", "exclusiveMinimum": 0}},
///     "required": ["city"],
/// });
/// let definitions = [ToolDefinition::new("forecast", "Get a forecast", schema.clone())];
///
/// let current = gemini::tools(&definitions, Dialect::JsonSchema);
/// assert_eq!(current.value["functionDeclarations"][0]["parametersJsonSchema"], schema);
///
/// let openapi = gemini::tools(&definitions, Dialect::OpenApi);
/// assert_eq!(openapi.value["functionDeclarations"][0]["parameters"], json!({
///     "type": "object",
///     "properties": {"city": {"type": "string"}, "days": {"type": "integer", "description": "More than 0.", "nullable": true}},
///     "required": ["city"],
/// }));
/// // Dropped, said so, and told to the model in the description.
/// assert_eq!(openapi.diagnostics[0].path, "/properties/days/exclusiveMinimum");
/// assert_eq!(openapi.diagnostics[1].path, "/properties/days/description");
/// ```
pub fn tools(definitions: &[ToolDefinition], dialect: Dialect) -> Converted {
    let converted = match dialect {
        Dialect::JsonSchema => convert_each(definitions, &GEMINI, json_schema),
        Dialect::OpenApi => convert_each(definitions, &GEMINI, openapi),
    };
    Converted {
        value: json!({"functionDeclarations": converted.value}),
        diagnostics: converted.diagnostics,
    }
}

fn json_schema(definition: &ToolDefinition, report: &mut Report<'_>) -> Value {
    json!({
        "name": definition.name,
        "description": definition.description,
        "parametersJsonSchema": const_as_enum(
            &flatten_root(&definition.parameters, &GEMINI_JSON_SCHEMA, report),
            report,
        ),
    })
}

fn openapi(definition: &ToolDefinition, report: &mut Report<'_>) -> Value {
    let mut declaration = Map::new();
    declaration.insert("name".into(), Value::String(definition.name.clone()));
    declaration.insert(
        "description".into(),
        Value::String(definition.description.clone()),
    );
    let flat = flatten_root(&definition.parameters, &GEMINI_OPENAPI, report);
    if let Some(parameters) = openapi_parameters(&flat, report) {
        declaration.insert("parameters".into(), parameters);
    }
    Value::Object(declaration)
}
