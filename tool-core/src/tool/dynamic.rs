//! Tools whose name, description and schema are only known at run time
//! (loaded from configuration, or proxied from another server).

use crate::model::ToolAnnotations;
use crate::params::{ParamError, SchemaError};
use crate::tool::ToolContext;
use crate::tool::{Tool, ToolError, ToolOutput};
use serde_json::{Map, Value, json};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// What checks a dynamic tool's arguments against its schema: the
/// validator, with the feature `schema-check`; without it, nothing can
/// (and a tool with a schema is refused at registration, see
/// [`SchemaError`]).
#[cfg(feature = "schema-check")]
type Checker = crate::params::SchemaCheck;
/// Never built: this build has no validator.
#[cfg(not(feature = "schema-check"))]
#[derive(Clone)]
enum Checker {}

/// The checker of `schema`, or why there is none.
fn checker_for(schema: &Value) -> Result<Option<Checker>, SchemaError> {
    #[cfg(feature = "schema-check")]
    return crate::params::SchemaCheck::new(schema).map(Some);
    #[cfg(not(feature = "schema-check"))]
    {
        let _ = schema;
        Err(SchemaError::unchecked())
    }
}

type DynamicFn = dyn Fn(
        Map<String, Value>,
        ToolContext,
    ) -> Pin<Box<dyn Future<Output = Result<ToolOutput<Value>, ToolError>> + Send>>
    + Send
    + Sync;

/// A tool built at run time from a closure. Its arguments arrive as a JSON
/// object. Without [`with_parameters`](Self::with_parameters) its schema is
/// `{"type":"object"}` and any object is accepted; with one, every call's
/// arguments are checked against that schema before the closure runs
/// (compiled once, when it is set), so arguments that break it get the
/// same paired error a derived tool's would, every problem at its path,
/// and go through opt-in repair the same way
/// ([`RunOptions::with_repair`](crate::RunOptions::with_repair)).
///
/// ```
/// # #[cfg(feature = "schema-check")] {
/// use tool_core::{DynamicTool, ToolCall, ToolOutput, ToolRegistry, RunOptions, execute_tool_call};
/// use serde_json::json;
///
/// let shout = DynamicTool::new("shout", "Upper-case a text", |args, _ctx| async move {
///     // The schema was checked: `text` is a string.
///     let text = args["text"].as_str().unwrap_or_default();
///     Ok(ToolOutput::text(text.to_uppercase()))
/// })
/// .try_with_parameters(json!({
///     "type": "object",
///     "properties": {"text": {"type": "string"}},
///     "required": ["text"],
/// }))
/// .unwrap();
///
/// let mut tools = ToolRegistry::new();
/// tools.register(shout).unwrap();
/// assert_eq!(tools.definitions()[0].parameters["properties"]["text"]["type"], "string");
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let call = ToolCall::new("c1", "shout", json!({"text": 7}));
/// let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
/// assert_eq!(result.content[0].as_text(), Some("Tool shout failed: text: expected string, got number 7"));
/// # });
/// # }
/// ```
#[derive(Clone)]
pub struct DynamicTool {
    name: String,
    description: String,
    parameters: Option<Value>,
    /// The schema compiled when it was set; `Err` when it does not compile
    /// (registration then refuses the tool).
    check: Result<Option<Checker>, SchemaError>,
    annotations: ToolAnnotations,
    /// [`Tool::hints_trusted`]: false for annotations a peer gave.
    hints_trusted: bool,
    examples: Vec<Value>,
    /// [`Tool::callers`]: who may call it.
    callers: crate::Callers,
    run: Arc<DynamicFn>,
}

impl DynamicTool {
    /// A tool named `name` that runs `run`.
    pub fn new<F, Fut>(name: impl Into<String>, description: impl Into<String>, run: F) -> Self
    where
        F: Fn(Map<String, Value>, ToolContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ToolOutput<Value>, ToolError>> + Send + 'static,
    {
        DynamicTool {
            name: name.into(),
            description: description.into(),
            parameters: None,
            check: Ok(None),
            annotations: ToolAnnotations::default(),
            hints_trusted: true,
            examples: Vec::new(),
            callers: crate::Callers::DIRECT,
            run: Arc::new(move |arguments, ctx| Box::pin(run(arguments, ctx))),
        }
    }

    /// The JSON Schema shown to the model for this tool's arguments, and
    /// checked on every call. It is compiled here, once; a schema that does
    /// not compile is kept, and [`ToolRegistry::register`](crate::ToolRegistry::register)
    /// refuses the tool with [`RegistryError::InvalidSchema`](crate::registry::RegistryError::InvalidSchema)
    /// ([`try_with_parameters`](Self::try_with_parameters) says so here
    /// instead).
    pub fn with_parameters(mut self, schema: Value) -> Self {
        self.check = checker_for(&schema);
        self.parameters = Some(schema);
        self
    }

    /// Shows `schema` and checks the arguments against it when this build
    /// can; when it cannot, the tool's own function checks them (the
    /// built-in `tool_search`, which reads its few arguments itself).
    pub(crate) fn with_parameters_it_checks(mut self, schema: Value) -> Self {
        self.check = checker_for(&schema).or(Ok(None));
        self.parameters = Some(schema);
        self
    }

    /// Hints about the tool's effects ([`Tool::annotations`]): what a
    /// toolset can filter on, and what MCP clients are shown.
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = annotations;
        self
    }

    /// Marks the annotations as a peer's hints, not this program's word
    /// ([`Tool::hints_trusted`]): for a tool built from what another
    /// system described (a plugin's manifest, a remote server's listing).
    /// They are still shown; nothing decides by them.
    ///
    /// ```
    /// use tool_core::{DynamicTool, ToolAnnotations, ToolOutput, ToolRegistry};
    ///
    /// let hinted = DynamicTool::new("purge", "Says it only reads", |_args, _ctx| async {
    ///     Ok(ToolOutput::text("purged"))
    /// })
    /// .with_annotations(ToolAnnotations::new().read_only())
    /// .with_untrusted_hints();
    /// let mut tools = ToolRegistry::new();
    /// tools.register(hinted).unwrap();
    /// let purge = tools.get("purge").unwrap();
    /// assert_eq!(purge.annotations().read_only, Some(true));
    /// assert!(!purge.is_read_only() && purge.may_destroy());
    /// ```
    pub fn with_untrusted_hints(mut self) -> Self {
        self.hints_trusted = false;
        self
    }

    /// Adds example arguments ([`Tool::examples`]), checked against the
    /// parameters when the tool is registered.
    ///
    /// ```
    /// # #[cfg(feature = "schema-check")] {
    /// use tool_core::{DynamicTool, ToolOutput, ToolRegistry};
    /// use serde_json::json;
    ///
    /// let search = DynamicTool::new("search", "Search", |_args, _ctx| async { Ok(ToolOutput::text("")) })
    ///     .with_parameters(json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}))
    ///     .with_example(json!({"q": "rust"}))
    ///     .with_example(json!({"q": 7}));
    /// let error = ToolRegistry::new().register(search).unwrap_err();
    /// assert_eq!(
    ///     error.to_string(),
    ///     "Tool search's example 1 does not parse with its parameters: q: expected string, got number 7"
    /// );
    /// # }
    /// ```
    pub fn with_example(mut self, arguments: Value) -> Self {
        self.examples.push(arguments);
        self
    }

    /// Who may call the tool: the model (the default), code it writes and
    /// the provider runs, or both; a format with programmatic calling
    /// writes it as `allowed_callers` ([`Tool::callers`]).
    ///
    /// ```
    /// use tool_core::{Callers, DynamicTool, Tool, ToolOutput};
    ///
    /// let lookup = DynamicTool::new("lookup", "Look up a record", |_args, _ctx| async {
    ///     Ok(ToolOutput::text("{}"))
    /// })
    /// .with_callers(Callers::BOTH);
    /// assert_eq!(lookup.callers(), Callers::BOTH);
    /// ```
    pub fn with_callers(mut self, callers: crate::Callers) -> Self {
        self.callers = callers;
        self
    }

    /// [`with_parameters`](Self::with_parameters), or why the schema does
    /// not compile.
    ///
    /// ```
    /// # #[cfg(feature = "schema-check")] {
    /// use tool_core::{DynamicTool, ToolOutput};
    /// use serde_json::json;
    ///
    /// let error = DynamicTool::new("t", "", |_args, _ctx| async { Ok(ToolOutput::text("")) })
    ///     .try_with_parameters(json!({"type": "object", "properties": {"n": {"type": 12}}}))
    ///     .unwrap_err();
    /// assert!(error.message().ends_with("(at /properties/n/type)"), "{error}");
    /// # }
    /// ```
    pub fn try_with_parameters(self, schema: Value) -> Result<Self, SchemaError> {
        let tool = self.with_parameters(schema);
        match &tool.check {
            Err(error) => Err(error.clone()),
            Ok(_) => Ok(tool),
        }
    }
}

impl Tool for DynamicTool {
    type Params = Map<String, Value>;
    type Details = Value;

    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters(&self) -> Value {
        self.parameters
            .clone()
            .unwrap_or_else(|| json!({"type": "object"}))
    }

    fn annotations(&self) -> ToolAnnotations {
        self.annotations.clone()
    }

    fn hints_trusted(&self) -> bool {
        self.hints_trusted
    }

    fn examples(&self) -> Vec<Value> {
        self.examples.clone()
    }

    fn callers(&self) -> crate::Callers {
        self.callers
    }

    #[cfg_attr(not(feature = "schema-check"), allow(unused_variables))]
    fn check_arguments(&self, arguments: &Value) -> Result<(), ParamError> {
        match &self.check {
            #[cfg(feature = "schema-check")]
            Ok(Some(check)) => check.check(arguments),
            #[cfg(not(feature = "schema-check"))]
            Ok(Some(never)) => match *never {},
            // No schema (any object), or one registration refuses.
            Ok(None) | Err(_) => Ok(()),
        }
    }

    fn check_schema(&self) -> Result<(), SchemaError> {
        self.check.as_ref().map(|_| ()).map_err(SchemaError::clone)
    }

    async fn execute(
        &self,
        params: Map<String, Value>,
        ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        (self.run)(params, ctx).await
    }
}

impl fmt::Debug for DynamicTool {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("DynamicTool")
            .field("name", &self.name)
            .field("description", &self.description)
            .field("parameters", &self.parameters)
            .finish_non_exhaustive()
    }
}
