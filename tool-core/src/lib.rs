//! Typed tool calling for LLM agents.
//!
//! A model asks for a tool call (`{"id":"call-1","name":"echo","arguments":{..}}`);
//! this crate checks the arguments, finds the tool in a [`ToolRegistry`], runs
//! it, and always answers with one [`ToolResultMessage`] paired to the call's
//! id. Tool authors write a plain struct or async function; the derive gives
//! both the runtime parser and the JSON Schema the model sees, from one
//! definition.
//!
//! ```
//! use tool_core::{execute_tool_call, text, CallContext, Tool, ToolCall, ToolContext, ToolError,
//!                 ToolOutput, ToolParams, ToolRegistry};
//! use serde_json::{json, Value};
//!
//! #[derive(ToolParams)]
//! struct EchoParams {
//!     value: String,
//! }
//!
//! struct Echo;
//!
//! impl Tool for Echo {
//!     type Params = EchoParams;
//!     type Details = Value;
//!     fn name(&self) -> &str { "echo" }
//!     fn description(&self) -> &str { "Echo one value" }
//!     async fn execute(&self, params: EchoParams, _ctx: ToolContext) -> Result<ToolOutput<Value>, ToolError> {
//!         Ok(ToolOutput::new(vec![text(params.value)]).with_details(json!({"source": "echo"})))
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut tools = ToolRegistry::new();
//! tools.register(Echo)?;
//!
//! let call = ToolCall::new("call-1", "echo", json!({"value": "Pi", "ignored": "drop me"}));
//! let result = execute_tool_call(&call, &tools, CallContext::default()).await;
//! let mut wire = serde_json::to_value(&result)?;
//! wire.as_object_mut().unwrap().remove("timestamp");
//! assert_eq!(wire, json!({
//!     "role": "toolResult",
//!     "toolCallId": "call-1",
//!     "toolName": "echo",
//!     "content": [{"type": "text", "text": "Pi"}],
//!     "details": {"source": "echo"},
//!     "isError": false,
//! }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```
//!
//! The ways to write a tool, from least to most code:
//!
//! - [`#[tool]`](macro@tool) on an `async fn`;
//! - [`#[tools]`](macro@tools) on an impl block, for tools that share state
//!   (a [`Toolbox`], registered with [`ToolRegistry::register_all`]);
//! - [`Tool`] implemented by hand (as above), or [`DynamicTool`] when the
//!   schema is only known at run time.
//!
//! A tool answers with [`Content`] for the model (text, images, audio,
//! links) and details for the program; [`Json<T>`] makes the details a
//! typed structured result with an output schema. [`ToolAnnotations`] say
//! what a tool does to its world, for the program around the model.
//!
//! # Field types
//!
//! | Rust | schema | parse |
//! | --- | --- | --- |
//! | `String` | `{"type":"string"}` | JSON string |
//! | `bool` | `{"type":"boolean"}` | JSON bool |
//! | `i8`..`i64`, `u8`..`u64`, `isize`, `usize` | `{"type":"integer"}` with the type's bounds | integral number in range; `2.0` is `2` |
//! | `NonZeroU8`..`NonZeroU64`, `NonZeroUsize` | `{"type":"integer","minimum":1}` (+max) | integer >= 1 |
//! | `f32`, `f64` | `{"type":"number"}` (`f32` with its range) | any JSON number in range |
//! | `char` | `{"type":"string","minLength":1,"maxLength":1}` | a string of exactly one code point |
//! | `PathBuf` | `{"type":"string"}` | JSON string (checking it is the tool's business) |
//! | `Option<T>` | T's schema, field not required | missing or null -> None |
//! | `Vec<T>` | `{"type":"array","items":T}` | each item, path `name[i]` |
//! | `HashSet<T>`, `BTreeSet<T>` | `{"type":"array","items":T,"uniqueItems":true}` | each item; a repeat is refused at its index (`tags[2]: repeats item 0`) |
//! | `[T; N]` | `{"type":"array","items":T,"minItems":N,"maxItems":N}` | exactly N items |
//! | `(A, B, ..)` (up to 8) | `{"type":"array","prefixItems":[A,B,..],"items":false,"minItems":n}` | exactly n items, each its own type |
//! | `BTreeMap<String,T>`, `HashMap<String,T>` | `{"type":"object","additionalProperties":T}` | each value, path `name.key` |
//! | `serde_json::Value` | `{}` | anything (nested at most 128 deep) |
//! | `Box<T>`, `Arc<T>` | T | T |
//! | `Ipv4Addr`, `Ipv6Addr` | `{"type":"string","format":"ipv4"}` (`"ipv6"`) | std's parser, which is the format's check |
//! | `IpAddr` | `{"type":"string","anyOf":[{"format":"ipv4"},{"format":"ipv6"}]}` | either |
//! | `uuid::Uuid` (feature `uuid`) | `{"type":"string","format":"uuid"}` | hyphenated only, then the crate's parser |
//! | `url::Url` (feature `url`) | `{"type":"string","format":"uri"}` | an RFC 3986 URI, then a WHATWG URL (stricter in places: the crate's reason is given) |
//! | `chrono::DateTime<Utc>` (feature `chrono`) | `{"type":"string","format":"date-time"}` | RFC 3339, any offset, converted to UTC |
//! | `chrono::NaiveDate` (feature `chrono`) | `{"type":"string","format":"date"}` | RFC 3339 full-date |
//! | a struct deriving `ToolParams` | its object schema, inline | nested, path `outer.inner` |
//! | a unit-only enum deriving `ToolParams` | `{"type":"string","enum":[...]}` | one of the names |
//! | an enum with data deriving `ToolParams` | `oneOf` (tagged) or `anyOf` (untagged) of its variants | the variant the tag names, or the first that parses |
//!
//! Add your own by implementing [`ParamValue`].
//!
//! # Limits
//!
//! Parsing refuses nested parameter structs and enums deeper than
//! [`MAX_NESTING`] and raw JSON values deeper than
//! [`MAX_JSON_DEPTH`] levels, tries at most [`MAX_UNTAGGED_ATTEMPTS`]
//! variants of untagged enums per call (and nests such tries at most
//! [`MAX_NESTING`] deep), and keeps at most [`MAX_PROBLEMS`] problems per
//! error (the rest are counted). Received values are echoed in messages up
//! to [`MAX_ECHO_CHARS`] characters.

#![warn(missing_docs)]

// Generated code names `::tool_core::…`; this lets the crate's own tests and
// doctests use the derives too.
extern crate self as tool_core;

// The pipeline, in the order a call meets it: arguments (parse and
// describe), tools, the registry, the executor; then the wire messages and
// the provider formats.
mod executor;
mod message;
mod name_map;
mod params;
pub mod providers;
mod registry;
mod repair;
mod tool;

#[doc(hidden)]
pub mod __private;

pub use executor::{
    AfterCall, AfterHook, BeforeCall, BeforeHook, CallContext, DEFAULT_CANCEL_GRACE, ExecutionMode,
    HookDecision, ProgressEvent, ProgressEventFn, RetryBudget, execute_tool_call,
    execute_tool_calls,
};
pub use message::{ToolCall, ToolResultMessage};
pub use params::{
    Bound, FloatLike, Format, HasItems, HasLength, LengthOf, MAX_ECHO_CHARS, MAX_JSON_DEPTH,
    MAX_NESTING, MAX_PROBLEMS, MAX_UNTAGGED_ATTEMPTS, Numeric, ParamError, ParamPath, ParamProblem,
    ParamValue, StringLike, ToolParams, json_type,
};
pub use registry::{PreparedCall, RegisteredTool, RegistryError, ToolDefinition, ToolRegistry};
pub use repair::{Repair, RepairPolicy, RepairRule, repair_arguments, repair_note};
pub use tokio_util::sync::CancellationToken;
pub use tool::{
    Content, DynamicTool, FailureKind, IntoToolbox, Json, ProgressFn, Tool, ToolAnnotations,
    ToolContext, ToolError, ToolFailure, ToolOutput, Toolbox, audio, image, resource_link, text,
};

/// Derives [`ToolParams`](trait@ToolParams) for a struct with named fields
/// or an enum (and [`ParamValue`] for any of them): the parser and the JSON
/// Schema from one definition.
///
/// ```
/// use tool_core::ToolParams;
/// use serde_json::json;
///
/// #[derive(ToolParams, Debug)]
/// #[param(rename_all = "camelCase", deny_unknown_fields)]
/// struct Search {
///     /// What to look for
///     query: String,
///     #[param(min = 1, max = 100, default = 10)]
///     max_results: u32,
///     #[param(rename = "lang", min_length = 2, max_length = 2)]
///     language: Option<String>,
///     mode: Mode,
///     #[param(one_of = [1, 3, 5])]
///     stars: Option<u8>,
///     #[param(pattern = "^[a-z0-9-]+$", example = "main")]
///     branch: Option<String>,
///     #[param(format = "date-time")]
///     since: Option<String>,
/// }
///
/// /// How hard to look
/// #[derive(ToolParams, Debug, PartialEq)]
/// #[param(rename_all = "snake_case")]
/// enum Mode {
///     Quick,
///     VeryThorough,
/// }
///
/// let search = Search::parse(&json!({"query": "rust", "mode": "very_thorough"})).unwrap();
/// assert_eq!((search.max_results, search.mode), (10, Mode::VeryThorough));
///
/// let schema = Search::json_schema();
/// assert_eq!(schema["required"], json!(["query", "mode"]));
/// assert_eq!(schema["properties"]["maxResults"], json!({"type": "integer", "minimum": 1, "maximum": 100, "default": 10}));
/// assert_eq!(schema["properties"]["mode"], json!({"description": "How hard to look", "type": "string", "enum": ["quick", "very_thorough"]}));
/// assert_eq!(schema["properties"]["since"], json!({"type": "string", "format": "date-time"}));
///
/// let error = Search::parse(&json!({"query": "q", "mode": "quick", "stars": 2, "branch": "Main"})).unwrap_err();
/// assert_eq!(error.to_string(), "stars: expected one of 1, 3, 5, got 2\n\
///                                branch: expected a string matching \"^[a-z0-9-]+$\", got \"Main\"");
/// ```
///
/// Enums with data take serde's four representations, with serde's words:
///
/// ```
/// use tool_core::ToolParams;
/// use serde_json::json;
///
/// /// One step of a UI script
/// #[derive(ToolParams, Debug, PartialEq)]
/// #[param(tag = "action", rename_all = "snake_case")]
/// enum Step {
///     /// Click at a point
///     Click { x: u32, y: u32 },
///     /// Type some text
///     TypeText { text: String },
///     /// Take a screenshot
///     Screenshot,
/// }
///
/// let step = Step::parse(&json!({"action": "click", "x": 3, "y": 4})).unwrap();
/// assert_eq!(step, Step::Click { x: 3, y: 4 });
/// let error = Step::parse(&json!({"action": "clik", "x": 3})).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "action: expected one of \"click\", \"type_text\", \"screenshot\", got \"clik\": did you mean \"click\"?"
/// );
/// assert_eq!(Step::json_schema()["oneOf"][0]["properties"]["action"], json!({"type": "string", "const": "click"}));
/// ```
///
/// **Container attributes**, `#[param(...)]`: `rename_all = "..."` (serde's
/// case names), `deny_unknown_fields`, `description = "..."` (else the doc
/// comment). On enums also `tag = "..."` (internally tagged: `{"tag":
/// "variant", ...fields}`), `tag = "...", content = "..."` (adjacently
/// tagged: `{"tag": "variant", "content": data}`), `untagged` (the data
/// alone; the first variant that parses wins), none (externally tagged:
/// `"variant"` or `{"variant": data}`), and `rename_all_fields = "..."` (the
/// fields of struct variants).
///
/// **Variant attributes**: `rename = "..."`, `rename_all = "..."` (its
/// fields), `description = "..."` (else the doc comment). Variants may be
/// unit, newtype (`V(T)`; internally tagged: a struct deriving
/// `ToolParams`, whose fields sit beside the tag), tuple (`V(A, B)`, an
/// array; not internally tagged) or struct variants.
///
/// **Field attributes**: `description = "..."` (else the doc comment: one
/// leading space stripped per line, a paragraph's lines joined with spaces,
/// paragraphs kept apart by a blank line), `rename = "..."`, `default` or
/// `default = expr` (the field is not required; missing or `null` gives the
/// default; the schema shows it), `min`/`max` (numbers), `min_length`/
/// `max_length` (strings in characters, arrays and sets in items),
/// `one_of = [..]` (numbers or strings: schema `enum`), `pattern = "..."`
/// (ECMA-262, found anywhere unless anchored; checked at compile time;
/// look-around and backreferences are refused, so matching is linear),
/// `format = "..."` (`date-time`, `date`, `time`, `duration`, `email`,
/// `hostname`, `ipv4`, `ipv6`, `uuid`, `uri`; parse asserts it), `items(...)`
/// (`description`, `min`, `max`, `min_length`, `max_length`, `pattern`,
/// `format`, `one_of` for each item of a list, set or array), `flatten` (a
/// struct's fields inline; a JSON name repeated between them is a compile
/// error), `skip` (not shown, not read: `Default` or `default = expr`),
/// `example = ..` (repeatable; schema `examples`), `deprecated` (schema
/// `deprecated: true`; Rust's `#[deprecated]` too). Generic structs and
/// enums get the bounds their fields need.
#[cfg(feature = "derive")]
pub use tool_derive::ToolParams;

/// Turns a documented `async fn` into a tool.
///
/// It generates `<Name>Params` (the function's parameters as a
/// [`ToolParams`](trait@ToolParams) struct) and the unit struct `<Name>Tool`
/// implementing [`Tool`], where `<Name>` is the function's name in
/// UpperCamelCase (`read_file` gives `ReadFileTool`). The function stays
/// callable as written. A parameter of type [`ToolContext`] or
/// `&ToolContext` receives the call's context and is not shown to the model.
///
/// - **Description**: the doc comment, or `#[tool(description = "...")]`.
///   rustdoc's `# Arguments` section is left out of it: its items become
///   the parameters' descriptions.
/// - **Parameter descriptions**, first found wins: `#[param(description =
///   "...")]`, the parameter's own doc comment (`/// The file to read` above
///   it; taken off the function as emitted, where rustc would refuse it),
///   then the parameter's item in `# Arguments` (`` * `path` - The file to
///   read ``). An item naming no parameter is a compile error at its line.
///   Parameters take every other `#[param(...)]` key, as struct fields do.
/// - **Options**: `#[tool(name = "...", timeout_ms = 5000, exclusive)]`, and
///   the annotations ([`ToolAnnotations`]): `title = "..."`, `read_only`,
///   `destructive`, `idempotent`, `open_world` (each also `= false`).
/// - **Returns**: `String` (one text item), `ToolOutput<D>`, [`Json<T>`] (a
///   structured result whose schema is the tool's
///   [`output_schema`](Tool::output_schema)), or a `Result` of one of them
///   whose error converts into [`ToolError`] (any `std::error::Error + Send +
///   Sync`, or a string).
///
/// ```
/// use tool_core::{execute_tool_call, tool, CallContext, Tool, ToolCall, ToolContext, ToolRegistry};
/// use serde_json::json;
///
/// /// Repeat a text
/// ///
/// /// # Arguments
/// ///
/// /// * `times` - How often to repeat it
/// #[tool(read_only, idempotent)]
/// async fn repeat(
///     ctx: &ToolContext,
///     /// The text to repeat
///     text: String,
///     #[param(default = 2, min = 1, max = 10)] times: usize,
/// ) -> Result<String, String> {
///     if ctx.is_cancelled() {
///         return Err("cancelled".into());
///     }
///     Ok(text.repeat(times))
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register(RepeatTool).unwrap();
/// assert_eq!(RepeatTool.description(), "Repeat a text");
/// let schema = RepeatTool.parameters();
/// assert_eq!(schema["properties"]["text"]["description"], "The text to repeat");
/// assert_eq!(schema["properties"]["times"]["description"], "How often to repeat it");
/// assert_eq!(RepeatTool.annotations().read_only, Some(true));
///
/// let call = ToolCall::new("call-1", "repeat", json!({"text": "ab"}));
/// let result = execute_tool_call(&call, &tools, CallContext::default()).await;
/// assert_eq!(result.content[0].as_text(), Some("abab"));
///
/// // Still a plain function.
/// assert_eq!(repeat(&ToolContext::new("direct"), "x".into(), 3).await.unwrap(), "xxx");
/// # });
/// ```
///
/// Tools with state (configuration, a root directory, a client) are methods
/// of a type with [`#[tools]`](macro@tools) on its impl block.
#[cfg(feature = "derive")]
pub use tool_derive::tool;

/// Makes the `#[tool]` methods of an impl block the tools of the type's
/// [`Toolbox`]: tools with state, shared through one `Arc`.
///
/// Each `#[tool] async fn name(&self, ...)` method becomes a tool with
/// everything `#[tool]` gives a function (descriptions, `#[param]`, the
/// context parameter, options, annotations, return types). For a method
/// `read` of `Files`, it generates `FilesReadParams` and `FilesReadTool`
/// (which holds the `Arc<Files>`), and `Files` implements [`Toolbox`];
/// [`ToolRegistry::register_all`] registers every tool of the box, given
/// the value or an `Arc` of it. Methods without `#[tool]` stay as they are,
/// and every method stays callable as written.
///
/// A tool method takes `&self` (calls may run at the same time: keep
/// mutable state behind a lock), is `async`, and is not generic; the impl
/// block is an inherent impl of a type without generic arguments; two tools
/// of one box cannot share a name. Each is a compile error at the tokens.
///
/// ```
/// use std::path::PathBuf;
/// use tool_core::{execute_tool_call, tools, CallContext, ToolCall, ToolError, ToolRegistry};
/// use serde_json::json;
///
/// struct Notes {
///     dir: PathBuf,
/// }
///
/// #[tools]
/// impl Notes {
///     /// Say where a note is kept
///     #[tool(read_only, title = "Locate a note")]
///     async fn locate(
///         &self,
///         /// The note's name, without extension
///         name: String,
///     ) -> Result<String, ToolError> {
///         Ok(self.path_of(&name).display().to_string())
///     }
///
///     /// An ordinary method, not a tool.
///     fn path_of(&self, name: &str) -> PathBuf {
///         self.dir.join(format!("{name}.md"))
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register_all(Notes { dir: "/notes".into() }).unwrap();
/// let call = ToolCall::new("call-1", "locate", json!({"name": "todo"}));
/// let result = execute_tool_call(&call, &tools, CallContext::default()).await;
/// assert_eq!(result.content[0].as_text(), Some("/notes/todo.md"));
/// let definition = tools.get("locate").unwrap().definition();
/// assert_eq!(definition.parameters["properties"]["name"]["description"], "The note's name, without extension");
/// assert_eq!(definition.annotations.title.as_deref(), Some("Locate a note"));
/// # });
/// ```
#[cfg(feature = "derive")]
pub use tool_derive::tools;
