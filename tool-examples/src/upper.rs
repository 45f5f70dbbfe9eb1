//! `upper`: the text, upper-cased.

use tool_core::tool;

/// Upper-case a text
#[tool]
pub async fn upper(#[param(description = "The text to upper-case")] text: String) -> String {
    text.to_uppercase()
}
