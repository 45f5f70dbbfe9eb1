//! The runtime half of `#[tool]`: what a tool function may return.

use crate::tool::{ToolError, ToolOutput};
use serde::Serialize;

/// The return types of a `#[tool]` function: `String`, `ToolOutput<D>`, and
/// `Result` of either with an error that converts into [`ToolError`].
#[diagnostic::on_unimplemented(
    message = "a #[tool] function cannot return `{Self}`",
    label = "the model needs text back",
    note = "return `String`, `ToolOutput<D>`, `Result<String, E>` or `Result<ToolOutput<D>, E>`, where `E` converts into `ToolError` (any `std::error::Error + Send + Sync`, or a string)"
)]
pub trait IntoToolResult {
    /// The tool's details type (`()` for a `String`).
    type Details: Serialize + Send;
    /// The output, or the error the executor pairs with the call.
    fn into_tool_result(self) -> Result<ToolOutput<Self::Details>, ToolError>;
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

impl<E: Into<ToolError>> IntoToolResult for Result<String, E> {
    type Details = ();
    fn into_tool_result(self) -> Result<ToolOutput<()>, ToolError> {
        self.map(ToolOutput::text).map_err(Into::into)
    }
}

impl<D: Serialize + Send, E: Into<ToolError>> IntoToolResult for Result<ToolOutput<D>, E> {
    type Details = D;
    fn into_tool_result(self) -> Result<ToolOutput<D>, ToolError> {
        self.map_err(Into::into)
    }
}
