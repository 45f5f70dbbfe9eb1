//! The two traits behind `#[derive(ToolParams)]`: one field list gives both
//! the parser that runs on every call and the JSON Schema the model sees.

use super::context::ParseContext;
use super::error::ParamError;
use super::path::ParamPath;
use serde_json::Value;

/// A tool's whole argument object: parsed from a call's `arguments`, and
/// described to the model as a JSON Schema. Derive it; both products come
/// from the same field list, so they cannot drift apart.
///
/// ```
/// use std::num::NonZeroU32;
/// use tool_core::ToolParams;
/// use serde_json::json;
///
/// #[derive(ToolParams, Debug, PartialEq)]
/// struct Request {
///     /// The text to echo
///     value: String,
///     label: Option<String>,
///     limit: Option<NonZeroU32>,
/// }
///
/// let arguments = json!({"value": "Pi", "limit": 2, "ignored": "x"});
/// let request = Request::parse(&arguments).unwrap();
/// assert_eq!(request.value, "Pi");
/// assert_eq!(request.label, None);
/// assert_eq!(request.limit, NonZeroU32::new(2));
///
/// let schema = Request::json_schema();
/// assert_eq!(schema["required"], json!(["value"]));
/// assert_eq!(schema["properties"]["value"]["description"], "The text to echo");
/// assert_eq!(schema["properties"]["limit"]["minimum"], 1);
/// ```
///
/// Parsing never clones the input and never stops at the first problem:
/// every problem is reported with its path (see [`ParseContext`]). Keys the
/// struct does not declare are dropped, unless the struct says
/// `#[param(deny_unknown_fields)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `ToolParams`",
    label = "`{Self}` needs `#[derive(ToolParams)]`",
    note = "add `#[derive(ToolParams)]` to `{Self}`: its parser and the JSON Schema the model sees come from that one definition",
    note = "a `Json<T>` result needs `T: ToolParams` too, not only `Serialize`: its schema is the tool's output schema, and the value is checked against it before it is sent"
)]
pub trait ToolParams: ParamValue {
    /// Parses a call's arguments, which must be a JSON object.
    #[inline]
    fn parse(arguments: &Value) -> Result<Self, ParamError> {
        let mut cx = ParseContext::new();
        match Self::parse_value(arguments, &ParamPath::root(), &mut cx) {
            Some(parsed) if cx.is_empty() => Ok(parsed),
            _ => Err(cx.into_error()),
        }
    }

    /// The JSON Schema of the arguments object, as a provider wants it in a
    /// tool definition. Built on each call; a registry builds it once, at
    /// registration.
    fn json_schema() -> Value {
        Self::schema()
    }
}

/// A type that can be a tool parameter: it parses itself from a JSON value,
/// describes itself as a JSON Schema, and turns back into JSON.
///
/// The standard types of the table in the crate docs implement it, as does
/// every type that derives [`ToolParams`](macro@crate::ToolParams). Implement
/// it for your own field types; parse and schema must agree: `parse_value`
/// accepts exactly the values `schema` accepts.
///
/// ```
/// use tool_core::{params::ParseContext, params::ParamPath, params::ParamValue, ToolParams};
/// use serde_json::{json, Value};
///
/// /// A hex color such as `#ff8800`.
/// #[derive(Debug, PartialEq)]
/// struct Color(u32);
///
/// impl ParamValue for Color {
///     fn schema() -> Value {
///         json!({"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"})
///     }
///     fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
///         let parsed = value
///             .as_str()
///             .and_then(|s| s.strip_prefix('#'))
///             .filter(|hex| hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
///             .and_then(|hex| u32::from_str_radix(hex, 16).ok());
///         if parsed.is_none() {
///             errors.push(path, "expected a color like \"#ff8800\"");
///         }
///         parsed.map(Color)
///     }
///     fn to_json(&self) -> Value {
///         Value::String(format!("#{:06x}", self.0))
///     }
/// }
///
/// #[derive(ToolParams, Debug)]
/// struct Paint {
///     color: Color,
/// }
///
/// assert_eq!(Paint::parse(&json!({"color": "#ff8800"})).unwrap().color, Color(0xff8800));
/// let error = Paint::parse(&json!({"color": "red"})).unwrap_err();
/// assert_eq!(error.to_string(), "color: expected a color like \"#ff8800\"");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "this type cannot be a tool parameter",
    note = "a tool parameter's type must implement `tool_core::params::ParamValue`: a string, bool, number, char, path or Duration; an Option, Vec, set, array, tuple, map, Box, Rc, Arc or Cow of one; serde_json::Value; an IP address; or a struct or enum with #[derive(ToolParams)] (see the field-type table in the docs of `tool_core`)",
    note = "for a type of your own, implement `tool_core::params::ParamValue` for it"
)]
pub trait ParamValue: Sized {
    /// True for types whose field may be absent from the arguments (`Option`):
    /// such a field is left out of the object's `required` list.
    const OPTIONAL: bool = false;

    /// The JSON Schema of this value wherever it appears (as an array item, a
    /// map value, or a field).
    fn schema() -> Value;

    /// The schema of this value as an object field. Differs from
    /// [`schema`](Self::schema) only for optional types: an `Option<T>` field
    /// shows `T`'s schema and is simply not required, while an `Option<T>`
    /// array item must admit `null`.
    fn field_schema() -> Value {
        Self::schema()
    }

    /// Parses `value`, found at `path`. On failure, pushes every problem onto
    /// `errors` and returns `None`; it never panics on any input.
    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self>;

    /// The value of a field the arguments leave out: `None` for required
    /// types (the field is reported missing), `Some(None)` for `Option`.
    fn when_missing() -> Option<Self> {
        None
    }

    /// This value as JSON, such that `parse_value(&v.to_json())` gives `v`
    /// back. Used for schema `default`s and to show parsed arguments.
    fn to_json(&self) -> Value;
}
