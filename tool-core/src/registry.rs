//! The tools one agent run may use, by name. Each registry owns its tools;
//! there is no global list.

use crate::name_map::NameMap;
use crate::params::{ParamError, SchemaError};
use crate::tool::ToolContext;
use crate::tool::{ErasedCall, ErasedTool};
use crate::tool::{Tool, ToolAnnotations, ToolError, ToolOutput, Toolbox};

pub use crate::tool::IntoToolbox;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// What a provider is told about a tool:
/// `{"name":"echo","description":"Echo one value","parameters":{..schema..}}`.
/// It holds no function.
///
/// `outputSchema` and `annotations` are written only when the tool has them,
/// so a definition without them is exactly the three keys above.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    /// The name the model calls the tool by.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// The JSON Schema of the arguments.
    pub parameters: Value,
    /// The JSON Schema of the tool's structured result ([`Tool::output_schema`]).
    #[serde(
        rename = "outputSchema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub output_schema: Option<Value>,
    /// Hints about the tool's effects ([`Tool::annotations`]).
    #[serde(default, skip_serializing_if = "ToolAnnotations::is_empty")]
    pub annotations: ToolAnnotations,
}

impl ToolDefinition {
    /// A definition with no output schema and no annotations.
    ///
    /// ```
    /// use tool_core::ToolDefinition;
    /// use serde_json::json;
    ///
    /// let echo = ToolDefinition::new("echo", "Echo one value", json!({"type": "object"}));
    /// assert_eq!(
    ///     serde_json::to_string(&echo).unwrap(),
    ///     r#"{"name":"echo","description":"Echo one value","parameters":{"type":"object"}}"#,
    /// );
    /// ```
    pub fn new(name: impl Into<String>, description: impl Into<String>, parameters: Value) -> Self {
        ToolDefinition {
            name: name.into(),
            description: description.into(),
            parameters,
            output_schema: None,
            annotations: ToolAnnotations::default(),
        }
    }

    /// The definition of `tool`, as a registry builds it.
    pub fn of<T: Tool>(tool: &T) -> Self {
        ToolDefinition {
            name: tool.name().to_owned(),
            description: tool.description().to_owned(),
            parameters: tool.parameters(),
            output_schema: tool.output_schema(),
            annotations: tool.annotations(),
        }
    }
}

/// Why a tool could not be registered.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// A tool of this name is already registered. Replacing it silently would
    /// run a different function than the definition a model has already seen.
    DuplicateName(String),
    /// The tool's parameters schema does not compile ([`Tool::check_schema`]):
    /// its calls could not be checked against it.
    InvalidSchema {
        /// The tool's name.
        tool: String,
        /// What is wrong with the schema, and where.
        error: SchemaError,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::DuplicateName(name) => write!(out, "Tool already exists: {name}"),
            RegistryError::InvalidSchema { tool, error } => {
                write!(out, "Tool {tool} has a parameters schema that is {error}")
            }
        }
    }
}

impl std::error::Error for RegistryError {}

/// A registered tool: its definition, built once at registration, and the
/// tool itself. Cloning it is cheap.
#[derive(Clone)]
pub struct RegisteredTool {
    definition: Arc<ToolDefinition>,
    tool: Arc<dyn ErasedTool>,
    timeout: Option<Duration>,
    retries: Option<u32>,
    exclusive: bool,
    needs_approval: bool,
    /// [`Tool::check_schema`]'s answer, asked once; a registry refuses the
    /// tool when it is an error.
    schema_error: Option<SchemaError>,
}

impl RegisteredTool {
    /// `tool` with its definition built, ready to be added to a registry
    /// (what [`Toolbox::tools`] returns).
    pub fn new<T: Tool>(tool: T) -> Self {
        RegisteredTool {
            definition: Arc::new(ToolDefinition::of(&tool)),
            timeout: Tool::timeout(&tool),
            retries: Tool::retries(&tool),
            exclusive: Tool::exclusive(&tool),
            needs_approval: Tool::needs_approval(&tool),
            schema_error: Tool::check_schema(&tool).err(),
            tool: Arc::new(tool),
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.definition.name
    }

    /// The tool's description.
    pub fn description(&self) -> &str {
        &self.definition.description
    }

    /// The JSON Schema of the tool's arguments.
    pub fn parameters(&self) -> &Value {
        &self.definition.parameters
    }

    /// The tool's hints about its effects ([`Tool::annotations`]).
    pub fn annotations(&self) -> &ToolAnnotations {
        &self.definition.annotations
    }

    /// Name, description and schema, as a provider wants them.
    pub fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    /// The tool's own timeout ([`Tool::timeout`]).
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// The tool's own retry limit ([`Tool::retries`]).
    pub fn retries(&self) -> Option<u32> {
        self.retries
    }

    /// Whether the tool's calls run alone ([`Tool::exclusive`]).
    pub fn exclusive(&self) -> bool {
        self.exclusive
    }

    /// Whether the tool itself asks for a person's approval of each call
    /// ([`Tool::needs_approval`]); a policy may ask for more
    /// ([`Approvals::requires`](crate::approval::Approvals::requires)).
    pub fn needs_approval(&self) -> bool {
        self.needs_approval
    }

    /// Parses `arguments` with the tool's parameter type. Nothing runs yet.
    /// Parses `arguments` with the tool's parameter type, then checks them
    /// as the tool asks ([`Tool::check_arguments`]). Nothing runs yet.
    pub fn prepare(&self, arguments: &Value) -> Result<PreparedCall<'_>, ParamError> {
        self.tool
            .prepare(arguments)
            .map(|inner| PreparedCall { inner })
    }
}

impl fmt::Debug for RegisteredTool {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("RegisteredTool")
            .field("definition", &self.definition)
            .finish_non_exhaustive()
    }
}

/// A call whose arguments have been parsed, ready to run.
pub struct PreparedCall<'a> {
    inner: Box<dyn ErasedCall<'a> + 'a>,
}

impl<'a> PreparedCall<'a> {
    /// The parsed arguments as JSON: what the tool will receive, with
    /// undeclared keys dropped and defaults filled in.
    pub fn arguments(&self) -> Value {
        self.inner.arguments()
    }

    /// Runs the tool. Its details come back as JSON. The future is boxed
    /// already (so `Unpin`): callers need not box it again.
    pub fn run(
        self,
        ctx: ToolContext,
    ) -> impl Future<Output = Result<ToolOutput<Value>, ToolError>> + Send + Unpin + 'a {
        self.inner.run(ctx)
    }
}

/// The tools one agent run may use.
///
/// ```
/// use tool_core::{DynamicTool, ToolOutput, ToolRegistry};
///
/// let echo = || DynamicTool::new("echo", "Echo one value", |_args, _ctx| async {
///     Ok(ToolOutput::text("hi"))
/// });
///
/// let mut tools = ToolRegistry::new();
/// tools.register(echo()).unwrap();
/// assert_eq!(tools.register(echo()).unwrap_err().to_string(), "Tool already exists: echo");
/// assert!(tools.get("echo").is_some());
/// assert_eq!(tools.definitions()[0].parameters, serde_json::json!({"type": "object"}));
/// ```
#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: Vec<RegisteredTool>,
    by_name: NameMap<usize>,
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        ToolRegistry::default()
    }

    /// Adds a tool; refuses a second tool of the same name, and a tool
    /// whose parameters schema does not compile ([`Tool::check_schema`]).
    ///
    /// ```
    /// use tool_core::{DynamicTool, ToolOutput, ToolRegistry, registry::RegistryError};
    /// use serde_json::json;
    ///
    /// let broken = DynamicTool::new("broken", "", |_args, _ctx| async { Ok(ToolOutput::text("")) })
    ///     .with_parameters(json!({"type": "object", "required": "n"}));
    /// let error = ToolRegistry::new().register(broken).unwrap_err();
    /// assert!(matches!(&error, RegistryError::InvalidSchema { tool, .. } if tool == "broken"));
    /// assert!(
    ///     error.to_string().starts_with("Tool broken has a parameters schema that is not valid JSON Schema: "),
    ///     "{error}"
    /// );
    /// ```
    pub fn register<T: Tool>(&mut self, tool: T) -> Result<(), RegistryError> {
        if self.by_name.contains_key(Tool::name(&tool)) {
            return Err(RegistryError::DuplicateName(Tool::name(&tool).to_owned()));
        }
        let tool = RegisteredTool::new(tool);
        refuse_invalid_schema(&tool)?;
        self.insert(tool);
        Ok(())
    }

    /// Adds every tool of a [`Toolbox`] (a type with `#[tools]` on its impl
    /// block), given as the value or as an `Arc` of it; its state is shared
    /// by all its tools through that one `Arc`. All or nothing: when any of
    /// its names is taken, or any tool's schema does not compile, no tool
    /// of the box is added.
    ///
    /// ```
    /// use std::path::PathBuf;
    /// use std::sync::Arc;
    /// use tool_core::{tools, ToolRegistry};
    ///
    /// struct Workspace {
    ///     root: PathBuf,
    /// }
    ///
    /// #[tools]
    /// impl Workspace {
    ///     /// Say where the workspace is
    ///     #[tool(read_only)]
    ///     async fn root(&self) -> String {
    ///         self.root.display().to_string()
    ///     }
    /// }
    ///
    /// let workspace = Arc::new(Workspace { root: "/srv".into() });
    /// let mut tools = ToolRegistry::new();
    /// tools.register_all(Arc::clone(&workspace)).unwrap();
    /// let again = tools.register_all(workspace).unwrap_err();
    /// assert_eq!(again.to_string(), "Tool already exists: root");
    /// assert_eq!(tools.len(), 1);
    /// ```
    pub fn register_all(&mut self, toolbox: impl IntoToolbox) -> Result<(), RegistryError> {
        let tools = Toolbox::tools(toolbox.into_arc());
        for (index, tool) in tools.iter().enumerate() {
            let name = tool.name();
            if self.by_name.contains_key(name)
                || tools[..index].iter().any(|earlier| earlier.name() == name)
            {
                return Err(RegistryError::DuplicateName(name.to_owned()));
            }
            refuse_invalid_schema(tool)?;
        }
        for tool in tools {
            self.insert(tool);
        }
        Ok(())
    }

    fn insert(&mut self, tool: RegisteredTool) {
        self.by_name
            .insert(tool.name().to_owned(), self.tools.len());
        self.tools.push(tool);
    }

    /// The tool called `name`, if registered.
    pub fn get(&self, name: &str) -> Option<&RegisteredTool> {
        self.by_name.get(name).map(|&index| &self.tools[index])
    }

    /// Every tool's definition, in registration order.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        self.tools
            .iter()
            .map(|tool| ToolDefinition::clone(&tool.definition))
            .collect()
    }

    /// The registered tools, in registration order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &RegisteredTool> {
        self.tools.iter()
    }

    /// How many tools are registered.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// A tool whose schema does not compile is not registered: its calls
/// could not be checked against what the model is shown.
fn refuse_invalid_schema(tool: &RegisteredTool) -> Result<(), RegistryError> {
    match &tool.schema_error {
        None => Ok(()),
        Some(error) => Err(RegistryError::InvalidSchema {
            tool: tool.name().to_owned(),
            error: error.clone(),
        }),
    }
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_list()
            .entries(self.tools.iter().map(RegisteredTool::name))
            .finish()
    }
}
