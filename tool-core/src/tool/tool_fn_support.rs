//! The runtime half of `#[tool]`: what a tool function may return.

use crate::model::Content;
use crate::params::{ParamValue, ToolParams};
use crate::tool::{Json, ToolError, ToolOutput};
use serde::Serialize;
use serde_json::Value;

/// The return types of a `#[tool]` function: `String`, `ToolOutput<D>`,
/// `Json<T>`, and `Result` of any of them with an error that converts into
/// [`ToolError`].
#[diagnostic::on_unimplemented(
    message = "a #[tool] function cannot return `{Self}`",
    label = "the model needs text back",
    note = "return `String`, `ToolOutput<D>`, `Json<T>`, or a `Result` of one of them, where `E` converts into `ToolError` (any `std::error::Error + Send + Sync`, or a string)"
)]
pub trait IntoToolResult {
    /// The tool's details type (`()` for a `String`).
    type Details: Serialize + Send;
    /// The output, or the error the executor pairs with the call.
    fn into_tool_result(self) -> Result<ToolOutput<Self::Details>, ToolError>;
    /// The schema of the structured result, for `Json<T>` only.
    fn output_schema() -> Option<Value> {
        None
    }
}

impl IntoToolResult for String {
    type Details = ();
    fn into_tool_result(self) -> Result<ToolOutput<()>, ToolError> {
        Ok(ToolOutput::text(self))
    }
}

impl<D: Serialize + Send> IntoToolResult for ToolOutput<D> {
    type Details = D;
    fn into_tool_result(self) -> Result<ToolOutput<D>, ToolError> {
        Ok(self)
    }
}

impl<T: ToolParams + Send> IntoToolResult for Json<T> {
    type Details = Json<T>;
    fn into_tool_result(self) -> Result<ToolOutput<Json<T>>, ToolError> {
        let (value, text) = self.into_parts();
        let json = ParamValue::to_json(&value);
        // A value the tool built can break its own schema (a NaN, which JSON
        // writes as null; a field under its `min`): checked with the parser
        // that agrees with the schema, so what is sent always validates
        // against the advertised output schema.
        if let Err(problems) = T::parse(&json) {
            return Err(format!(
                "its structured result does not match its output schema: {problems}"
            )
            .into());
        }
        // The model reads the tool's own text when it gave one
        // (`Json::with_text`), else the JSON; the details are the value.
        let text = text.unwrap_or_else(|| json.to_string());
        Ok(ToolOutput::new(vec![Content::text(text)]).with_details(Json::new(value)))
    }
    fn output_schema() -> Option<Value> {
        Some(T::json_schema())
    }
}

impl<R: IntoToolResult, E: Into<ToolError>> IntoToolResult for Result<R, E> {
    type Details = R::Details;
    fn into_tool_result(self) -> Result<ToolOutput<R::Details>, ToolError> {
        self.map_err(Into::into)?.into_tool_result()
    }
    fn output_schema() -> Option<Value> {
        R::output_schema()
    }
}
