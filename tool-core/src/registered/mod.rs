//! A tool as a registry holds it: its definition built once, the tool
//! behind an `Arc`, and what a toolset changed about it (its name, its
//! origin, deferral, approval, a per-turn preparation).

mod error;
mod toolbox;

pub use error::RegistryError;
pub use toolbox::{IntoToolbox, Toolbox};

use crate::model::ToolAnnotations;
use crate::model::ToolDefinition;
use crate::params::{ParamError, SchemaError};
use crate::tool::{ErasedCall, ErasedTool};
use crate::tool::{Tool, ToolContext, ToolError, ToolOutput};
use crate::turn::Turn;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// Changes or hides a tool's definition for one turn, from the turn
/// ([`Toolset::prepared`](crate::toolset::Toolset::prepared)): `false`
/// hides the tool (the model is not shown it, and a call of it is answered
/// `not available in this turn`).
pub type PrepareFn = Arc<dyn Fn(&Turn, &mut ToolDefinition) -> bool + Send + Sync>;

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
    /// [`Tool::hints_trusted`]'s answer.
    hints_trusted: bool,
    /// [`Tool::check_schema`]'s answer, asked once; a registry refuses the
    /// tool when it is an error.
    schema_error: Option<SchemaError>,
    /// Where the tool came from, for a collision's message: its toolset's
    /// label, or `tool <name>` (its name when built) when it came alone.
    origin: Arc<str>,
    /// The per-turn preparations of the toolsets it went through, outer last.
    prepare: Option<PrepareFn>,
    /// Whether its context carries the call's turn: the built-in
    /// `tool_search` only, which searches what they make callable.
    sees_turn: bool,
    /// [`Tool::runs_tools`]'s answer: its context carries the call's options.
    runs_tools: bool,
}

impl RegisteredTool {
    /// `tool` with its definition built, ready to be added to a registry
    /// (what [`Toolbox::tools`](crate::Toolbox::tools) returns).
    pub fn new<T: Tool>(tool: T) -> Self {
        let origin = Arc::from(format!("tool {}", Tool::name(&tool)));
        let runs_tools = Tool::runs_tools(&tool);
        RegisteredTool {
            origin,
            definition: Arc::new(ToolDefinition::of(&tool)),
            timeout: Tool::timeout(&tool),
            retries: Tool::retries(&tool),
            exclusive: Tool::exclusive(&tool),
            needs_approval: Tool::needs_approval(&tool),
            hints_trusted: Tool::hints_trusted(&tool),
            schema_error: Tool::check_schema(&tool).err(),
            tool: Arc::new(tool),
            prepare: None,
            sees_turn: false,
            runs_tools,
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

    /// Whether the tool's annotations are its registrant's word
    /// ([`Tool::hints_trusted`]).
    pub fn hints_trusted(&self) -> bool {
        self.hints_trusted
    }

    /// Whether the tool changes nothing, as far as anything may decide by
    /// it: its annotations say read-only and they are trusted.
    pub fn is_read_only(&self) -> bool {
        self.hints_trusted && self.definition.annotations.read_only == Some(true)
    }

    /// Whether a call may destroy something, as far as anything may decide
    /// by it: [`ToolAnnotations::may_destroy`](crate::ToolAnnotations::may_destroy)
    /// of trusted annotations; always for untrusted ones.
    pub fn may_destroy(&self) -> bool {
        !self.hints_trusted || self.definition.annotations.may_destroy()
    }

    /// Whether the tool waits for a search before the model is shown it
    /// ([`Toolset::deferred`](crate::toolset::Toolset::deferred)).
    pub fn is_deferred(&self) -> bool {
        self.definition.defer_loading
    }

    /// Where the tool came from: its toolset's label (a toolbox's type, an
    /// MCP server), or `tool <name>` when it was registered alone.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The definition the model is shown in `turn`, or
    /// `None` when a toolset's preparation hides the tool in it. Borrowed
    /// when nothing prepares it. The name stays the registered one: a
    /// preparation that changed it would show the model a tool no call
    /// could reach.
    pub fn definition_for(&self, options: &Turn) -> Option<Cow<'_, ToolDefinition>> {
        let Some(prepare) = &self.prepare else {
            return Some(Cow::Borrowed(&self.definition));
        };
        let mut definition = ToolDefinition::clone(&self.definition);
        if !prepare(options, &mut definition) {
            return None;
        }
        definition.name.clone_from(&self.definition.name);
        Some(Cow::Owned(definition))
    }

    /// Whether a toolset's preparation hides the tool in a turn run with
    /// `options` (only then is its definition built).
    pub(crate) fn hidden_in(&self, options: &Turn) -> bool {
        self.prepare.is_some() && self.definition_for(options).is_none()
    }

    /// Whether a call of it runs under `options`: they enable it and no
    /// preparation hides it. The executor's test, and `tool_search`'s.
    pub(crate) fn is_available_in(&self, options: &Turn) -> bool {
        options.is_enabled(self.name()) && !self.hidden_in(options)
    }

    /// Whether the executor gives its context the call's turn.
    pub(crate) fn sees_turn(&self) -> bool {
        self.sees_turn
    }

    /// Whether the executor gives its context the call's options.
    pub(crate) fn runs_tools(&self) -> bool {
        self.runs_tools
    }

    /// Parses `arguments` with the tool's parameter type, then checks them
    /// as the tool asks ([`Tool::check_arguments`]). Nothing runs yet.
    pub fn prepare(&self, arguments: &Value) -> Result<PreparedCall<'_>, ParamError> {
        self.tool
            .prepare(arguments)
            .map(|inner| PreparedCall { inner })
    }
}

/// What toolsets change, and what a registry checks before it adds a tool.
impl RegisteredTool {
    pub(crate) fn with_name(mut self, name: String) -> Self {
        Arc::make_mut(&mut self.definition).name = name;
        self
    }

    pub(crate) fn with_origin(mut self, origin: &Arc<str>) -> Self {
        self.origin = Arc::clone(origin);
        self
    }

    pub(crate) fn with_deferral(mut self, deferred: bool) -> Self {
        if self.definition.defer_loading != deferred {
            Arc::make_mut(&mut self.definition).defer_loading = deferred;
        }
        self
    }

    pub(crate) fn with_callers(mut self, callers: crate::Callers) -> Self {
        if self.definition.allowed_callers != callers {
            Arc::make_mut(&mut self.definition).allowed_callers = callers;
        }
        self
    }

    /// Gives the tool the call's turn in its context.
    pub(crate) fn seeing_turn(mut self) -> Self {
        self.sees_turn = true;
        self
    }

    pub(crate) fn with_approval_required(mut self) -> Self {
        self.needs_approval = true;
        self
    }

    /// Adds a preparation after the ones the tool has: each sees the
    /// definition the earlier ones made.
    pub(crate) fn with_preparation(mut self, prepare: PrepareFn) -> Self {
        self.prepare = Some(match self.prepare.take() {
            None => prepare,
            Some(inner) => Arc::new(move |options: &Turn, definition: &mut ToolDefinition| {
                inner(options, definition) && prepare(options, definition)
            }),
        });
        self
    }

    /// The refusals that do not depend on the registry: a schema that does
    /// not compile, an example that does not parse.
    pub(crate) fn check(&self) -> Result<(), RegistryError> {
        if let Some(error) = &self.schema_error {
            return Err(RegistryError::InvalidSchema {
                tool: self.name().to_owned(),
                error: error.clone(),
            });
        }
        let examples = &self.definition.input_examples;
        if examples.is_empty() {
            return Ok(());
        }
        // Parse alone would drop a misspelled key: the schema the model is
        // shown judges each example too (when this build has the
        // validator), so an example never teaches a key or a name that the
        // schema does not have.
        #[cfg(feature = "schema-check")]
        let schema = crate::params::SchemaCheck::new(&self.definition.parameters).ok();
        for (index, example) in examples.iter().enumerate() {
            let parsed = self.tool.prepare(example).map(drop);
            #[cfg(feature = "schema-check")]
            let parsed = parsed.and_then(|()| match &schema {
                Some(schema) => schema.check(example),
                None => Ok(()),
            });
            let judged = parsed;
            if let Err(error) = judged {
                return Err(RegistryError::InvalidExample {
                    tool: self.name().to_owned(),
                    index,
                    error,
                });
            }
        }
        Ok(())
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

impl fmt::Debug for PreparedCall<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.debug_struct("PreparedCall").finish_non_exhaustive()
    }
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
