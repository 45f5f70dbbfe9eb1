//! What a tool says about its effects, for the program around the model:
//! MCP's tool annotations, which a client uses to decide, say, whether to
//! ask a person before a call.

use serde::{Deserialize, Serialize};

/// Hints about a tool's behaviour, MCP's `annotations`
/// (<https://modelcontextprotocol.io/specification/2025-11-25/schema#toolannotations>):
/// `{"title":"Read file","readOnlyHint":true}`.
///
/// Each hint is `None` unless the tool says it, and `None` is left out of
/// the wire shape; MCP then reads the protocol's defaults, which assume the
/// worst: not read-only, destructive, not idempotent, open world. They are
/// hints from the tool's author, not guarantees: a sandbox or a permission
/// check still has to enforce what matters.
///
/// ```
/// use tool_core::ToolAnnotations;
///
/// let hints = ToolAnnotations::new().with_title("Read file").read_only();
/// assert_eq!(
///     serde_json::to_value(&hints).unwrap(),
///     serde_json::json!({"title": "Read file", "readOnlyHint": true}),
/// );
/// assert!(!hints.may_destroy());
/// assert!(ToolAnnotations::new().may_destroy()); // MCP's default
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// A name for people (a UI), where the tool's name is for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `readOnlyHint`: the tool changes nothing around it.
    #[serde(
        rename = "readOnlyHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub read_only: Option<bool>,
    /// `destructiveHint`: the tool may destroy or overwrite what exists
    /// (`false`: it only adds). Meaningful when it is not read-only.
    #[serde(
        rename = "destructiveHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub destructive: Option<bool>,
    /// `idempotentHint`: a second call with the same arguments changes
    /// nothing more. Meaningful when it is not read-only.
    #[serde(
        rename = "idempotentHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub idempotent: Option<bool>,
    /// `openWorldHint`: the tool reaches things outside the program (the
    /// web, other people's systems), not only its own closed domain.
    #[serde(
        rename = "openWorldHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub open_world: Option<bool>,
}

impl ToolAnnotations {
    /// No hints at all.
    pub fn new() -> Self {
        ToolAnnotations::default()
    }

    /// True when no hint is set: the definition then carries no
    /// `annotations` key at all.
    pub fn is_empty(&self) -> bool {
        *self == ToolAnnotations::default()
    }

    /// Sets the title.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Marks the tool read-only.
    pub fn read_only(mut self) -> Self {
        self.read_only = Some(true);
        self
    }

    /// Says whether the tool may destroy what exists.
    pub fn destructive(mut self, destructive: bool) -> Self {
        self.destructive = Some(destructive);
        self
    }

    /// Marks the tool idempotent.
    pub fn idempotent(mut self) -> Self {
        self.idempotent = Some(true);
        self
    }

    /// Says whether the tool reaches an open world.
    pub fn open_world(mut self, open_world: bool) -> Self {
        self.open_world = Some(open_world);
        self
    }

    /// Whether a call may destroy something, reading the hints as MCP does:
    /// a read-only tool does not; otherwise `destructive`, whose default is
    /// true. What a before hook asks before it lets a call run.
    pub fn may_destroy(&self) -> bool {
        self.read_only != Some(true) && self.destructive != Some(false)
    }
}
