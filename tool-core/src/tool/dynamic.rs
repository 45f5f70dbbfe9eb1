//! Tools whose name, description and schema are only known at run time
//! (loaded from configuration, or proxied from another server).

use crate::tool::ToolContext;
use crate::tool::{Tool, ToolError, ToolOutput};
use serde_json::{Map, Value, json};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

type DynamicFn = dyn Fn(
        Map<String, Value>,
        ToolContext,
    ) -> Pin<Box<dyn Future<Output = Result<ToolOutput<Value>, ToolError>> + Send>>
    + Send
    + Sync;

/// A tool built at run time from a closure. Its arguments arrive as a JSON
/// object, unchecked beyond being an object: the closure validates them
/// itself. Without [`with_parameters`](Self::with_parameters) its schema is
/// `{"type":"object"}`.
///
/// ```
/// use tool_core::{DynamicTool, ToolOutput, ToolRegistry};
/// use serde_json::json;
///
/// let shout = DynamicTool::new("shout", "Upper-case a text", |args, _ctx| async move {
///     let text = args.get("text").and_then(|t| t.as_str()).ok_or("text: expected string")?;
///     Ok(ToolOutput::text(text.to_uppercase()))
/// })
/// .with_parameters(json!({"type": "object", "properties": {"text": {"type": "string"}}}));
///
/// let mut tools = ToolRegistry::new();
/// tools.register(shout).unwrap();
/// assert_eq!(tools.definitions()[0].parameters["properties"]["text"]["type"], "string");
/// ```
#[derive(Clone)]
pub struct DynamicTool {
    name: String,
    description: String,
    parameters: Option<Value>,
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
            run: Arc::new(move |arguments, ctx| Box::pin(run(arguments, ctx))),
        }
    }

    /// The JSON Schema shown to the model for this tool's arguments.
    pub fn with_parameters(mut self, schema: Value) -> Self {
        self.parameters = Some(schema);
        self
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
