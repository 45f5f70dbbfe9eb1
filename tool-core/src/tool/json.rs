//! `Json<T>`: a typed, structured tool result whose schema comes from the
//! same derive as a tool's parameters.

use crate::params::{ParamValue, ToolParams};
use serde::{Serialize, Serializer};

/// A structured result: a `#[tool]` function (or method) returning `Json<T>`
/// (or `Result<Json<T>, E>`) gives the program `T` as its details, the model
/// the same JSON as text (what a model without structured output reads), and
/// its definition `T`'s derived schema as
/// [`output_schema`](crate::ToolDefinition::output_schema).
///
/// `T` derives [`ToolParams`](trait@ToolParams), and the JSON is written by
/// that derive (`to_json`), not by a separate `Serialize` impl: the value
/// sent and the schema advertised come from one definition. A value the
/// tool built can still break the schema (a `NaN`, which JSON writes as
/// `null`; a field outside its `min`/`max`), so the result is checked with
/// `T::parse` before it is sent, and one that does not match is the call's
/// paired error (`its structured result does not match its output schema:
/// ratio: expected number, got null`): what is sent always validates
/// against the advertised schema and parses back.
///
/// ```
/// use tool_core::{tool, Json, Tool, ToolParams};
///
/// /// One entry of a listing.
/// #[derive(ToolParams)]
/// pub struct Entry {
///     /// The file's name.
///     name: String,
///     size: u64,
/// }
///
/// /// Describe one file
/// #[tool]
/// async fn stat(name: String) -> Json<Entry> {
///     Json(Entry { name, size: 3 })
/// }
///
/// let schema = StatTool.output_schema().unwrap();
/// assert_eq!(schema["properties"]["size"]["type"], "integer");
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let output = StatTool.execute(StatParams { name: "a.txt".into() }, Default::default()).await.unwrap();
/// assert_eq!(output.content[0].as_text(), Some(r#"{"name":"a.txt","size":3}"#));
/// # });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Json<T>(pub T);

impl<T: ToolParams> Serialize for Json<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ParamValue::to_json(&self.0).serialize(serializer)
    }
}

impl<T> Json<T> {
    /// The value inside.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<T> for Json<T> {
    fn from(value: T) -> Self {
        Json(value)
    }
}
