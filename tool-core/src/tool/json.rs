//! `Json<T>`: a typed, structured tool result whose schema comes from the
//! same derive as a tool's parameters, and the text the model reads of it.

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
/// Make one with `Json(value)` or [`Json::new`]. To give the model a text of
/// your own instead of the JSON, add [`with_text`](Json::with_text).
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Json<T> {
    value: T,
    text: Option<String>,
}

/// `Json(value)`: the structured result `value`, whose JSON the model
/// reads as text (the same as [`Json::new`]). A function with the type's
/// name, so `Json(value)` is written as before `Json` gained its text.
#[allow(non_snake_case)]
pub fn Json<T>(value: T) -> Json<T> {
    Json::new(value)
}

impl<T: ToolParams> Serialize for Json<T> {
    /// The value's JSON, as its derive writes it; the text is not part of
    /// it (it is what the model reads, not data).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ParamValue::to_json(&self.value).serialize(serializer)
    }
}

impl<T> Json<T> {
    /// The structured result `value`; the model reads its JSON as text.
    pub fn new(value: T) -> Self {
        Json { value, text: None }
    }

    /// Has the model read `text` instead of the JSON, as the Vercel AI
    /// SDK's `toModelOutput` does
    /// (<https://ai-sdk.dev/docs/ai-sdk-core/tools-and-tool-calling#multi-modal-tool-results>:
    /// a tool's "optional `toModelOutput` function that converts the tool
    /// result into a content part"): a short summary of a long listing, say.
    /// The program still gets the value as the result's details, checked
    /// against the output schema, which does not change.
    ///
    /// Served over MCP, the text is the result's `content` and the value
    /// its `structuredContent`. The specification says a tool returning
    /// structured content SHOULD also return it serialized in a text block
    /// for clients that do not read `structuredContent`
    /// (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#structured-content>);
    /// with a text of your own, such a client reads your text instead.
    ///
    /// ```
    /// use tool_core::{tool, Json, Tool, ToolParams};
    ///
    /// /// What a search found.
    /// #[derive(ToolParams)]
    /// pub struct Found {
    ///     paths: Vec<String>,
    /// }
    ///
    /// /// Find files by name
    /// #[tool(read_only)]
    /// async fn find(name: String) -> Json<Found> {
    ///     let paths = vec![format!("src/{name}"), format!("docs/{name}"), format!("tests/{name}")];
    ///     let text = format!("{} files found", paths.len());
    ///     Json::new(Found { paths }).with_text(text)
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let output = FindTool.execute(FindParams { name: "a.rs".into() }, Default::default()).await.unwrap();
    /// assert_eq!(output.content[0].as_text(), Some("3 files found"));
    /// let details = serde_json::to_value(output.details.unwrap()).unwrap();
    /// assert_eq!(details["paths"][0], "src/a.rs");
    /// # });
    /// ```
    pub fn with_text(mut self, text: impl Into<String>) -> Self {
        self.text = Some(text.into());
        self
    }

    /// The value inside.
    pub fn value(&self) -> &T {
        &self.value
    }

    /// The text the model reads instead of the JSON, if one was given.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// The value inside.
    pub fn into_inner(self) -> T {
        self.value
    }

    /// The value and the text, taken apart.
    pub(crate) fn into_parts(self) -> (T, Option<String>) {
        (self.value, self.text)
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> From<T> for Json<T> {
    fn from(value: T) -> Self {
        Json::new(value)
    }
}
