//! What a tool returns: content for the model, details for the program,
//! and whether it is a domain error.

use crate::model::Content;

/// What a tool returns: content for the model, details for the program.
///
/// `is_error: true` is a domain error (the tool ran and has something useful
/// to say about failing); the executor keeps its content and details as they
/// are. A tool that cannot run at all returns `Err` instead.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ToolOutput<D> {
    /// What the model reads in its next turn.
    pub content: Vec<Content>,
    /// Structured data for the program; left out of the result when `None`.
    pub details: Option<D>,
    /// A domain error; `false` unless the tool says otherwise.
    pub is_error: bool,
}

impl<D> ToolOutput<D> {
    /// Output with this content, no details, not an error.
    pub fn new(content: Vec<Content>) -> Self {
        ToolOutput {
            content,
            details: None,
            is_error: false,
        }
    }

    /// Output of one text item.
    pub fn text(text: impl Into<String>) -> Self {
        ToolOutput::new(vec![Content::text(text)])
    }

    /// Attaches details.
    pub fn with_details(mut self, details: D) -> Self {
        self.details = Some(details);
        self
    }

    /// Marks the output as a domain error, keeping content and details.
    pub fn into_error(mut self) -> Self {
        self.is_error = true;
        self
    }
}
