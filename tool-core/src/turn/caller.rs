//! Who asked for a call: the identity a transport authenticated (an MCP
//! server's OAuth access token), carried by [`RunOptions`](crate::RunOptions)
//! to the before hook, so an application can log or decide on it.

/// The authenticated caller of a call, as a transport established it: the
/// subject and client of an OAuth access token, and the scopes it grants.
/// The executor reads none of it; [`BeforeCall::caller`](crate::executor::BeforeCall::caller)
/// shows it to the before hook, which may log it or block the call.
///
/// ```
/// use tool_core::executor::{Caller, HookDecision};
/// use tool_core::{DynamicTool, RunOptions, ToolCall, ToolOutput, ToolRegistry, execute_tool_call};
/// use serde_json::json;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut tools = ToolRegistry::new();
/// tools.register(DynamicTool::new("ping", "Answers pong", |_args, _ctx| async {
///     Ok(ToolOutput::text("pong"))
/// })).unwrap();
/// let only_alice = RunOptions::new().with_before_hook(|call| async move {
///     match call.caller.as_ref().and_then(|caller| caller.subject.as_deref()) {
///         Some("alice") => Ok(HookDecision::Allow),
///         other => Ok(HookDecision::Block(format!("{other:?} may not call {}", call.tool_name))),
///     }
/// });
/// let alice = Caller::new().with_subject("alice").with_scopes(["tools:read"]);
/// let call = ToolCall::new("c1", "ping", json!({}));
/// let allowed = execute_tool_call(&call, &tools, only_alice.clone().with_caller(alice)).await;
/// assert!(!allowed.is_error);
/// let anonymous = execute_tool_call(&call, &tools, only_alice).await;
/// assert!(anonymous.is_error);
/// # });
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Caller {
    /// Whom the call is for: an access token's `sub` (a person, or the
    /// client itself in a client-credentials grant).
    pub subject: Option<String>,
    /// The client application that asked: the token's `client_id`
    /// (RFC 9068), or its `azp`.
    pub client_id: Option<String>,
    /// Who vouched for the identity: the token's `iss`.
    pub issuer: Option<String>,
    /// The scopes the caller was granted (the token's `scope`, split on
    /// spaces).
    pub scopes: Vec<String>,
}

impl Caller {
    /// A caller known by nothing yet; add what the transport established
    /// with the `with_*` methods.
    pub fn new() -> Self {
        Caller::default()
    }

    /// Sets the subject (`sub`).
    pub fn with_subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// Sets the client (`client_id`).
    pub fn with_client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }

    /// Sets the issuer (`iss`).
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// Sets the granted scopes.
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Whether `scope` is one of the granted scopes.
    ///
    /// ```
    /// let caller = tool_core::executor::Caller::new().with_scopes(["tools:read"]);
    /// assert!(caller.has_scope("tools:read"));
    /// assert!(!caller.has_scope("tools:write"));
    /// ```
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|granted| granted == scope)
    }
}
