//! Which calls need a person's approval, and how it is asked.

#[cfg(feature = "approval-state")]
use super::key::ApprovalKey;
#[cfg(feature = "approval-state")]
use super::ledger::{MemoryLedger, SuspensionLedger};
use super::request::{ApprovalRequest, Decision};
use super::standing::StandingDecisions;
use crate::registry::RegisteredTool;
use serde_json::Value;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
#[cfg(feature = "approval-state")]
use std::time::Duration;

/// How long a suspension may wait for its decisions unless the application
/// says otherwise: a working day, for a person who steps away.
#[cfg(feature = "approval-state")]
pub const DEFAULT_SUSPENSION_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// How long a resume holds its claim on a state without renewing it, unless
/// the application says otherwise: a resume renews it every third of that
/// while its calls run, so a process that dies is known gone this long
/// after (its calls are then answered `interrupted`).
#[cfg(feature = "approval-state")]
pub const DEFAULT_RESUME_LEASE: Duration = Duration::from_secs(30);

type AskFn =
    dyn Fn(ApprovalRequest) -> Pin<Box<dyn Future<Output = Decision> + Send>> + Send + Sync;

type PickFn = dyn Fn(&RegisteredTool, &Value) -> bool + Send + Sync;

/// Which calls need approval beyond those whose tool asks for it
/// ([`Tool::needs_approval`](crate::Tool::needs_approval), always honoured).
#[derive(Clone)]
pub struct ApprovalPolicy {
    rule: Rule,
}

#[derive(Clone)]
enum Rule {
    Marked,
    MayDestroy,
    Every,
    When(Arc<PickFn>),
}

impl ApprovalPolicy {
    /// Only the tools marked `needs_approval` (the default).
    pub fn marked_tools() -> Self {
        ApprovalPolicy { rule: Rule::Marked }
    }

    /// Also every tool that may destroy: not marked read-only, and not
    /// marked `destructive = false` ([`ToolAnnotations::may_destroy`](crate::ToolAnnotations::may_destroy)),
    /// or whose marks are a peer's that may not be trusted (an MCP
    /// server's imported tools: [`RegisteredTool::may_destroy`](crate::registry::RegisteredTool::may_destroy)).
    pub fn may_destroy() -> Self {
        ApprovalPolicy {
            rule: Rule::MayDestroy,
        }
    }

    /// Every tool.
    pub fn every_tool() -> Self {
        ApprovalPolicy { rule: Rule::Every }
    }

    /// Also the calls `requires` picks, from the tool (its name,
    /// annotations, ...) and the call's arguments as parsed (defaults
    /// filled in, repairs applied: what would run), as the OpenAI Agents
    /// SDK's `needs_approval(ctx, args)` and the AI SDK's
    /// `needsApproval({ input })` decide.
    ///
    /// ```
    /// use tool_core::approval::{ApprovalPolicy, Approvals};
    ///
    /// // Transfers above 100 need a person; smaller ones run.
    /// let policy = ApprovalPolicy::when(|tool, arguments| {
    ///     tool.name() == "transfer" && arguments["amount"].as_u64().is_none_or(|amount| amount > 100)
    /// });
    /// # let _ = policy;
    /// ```
    pub fn when(
        requires: impl Fn(&RegisteredTool, &Value) -> bool + Send + Sync + 'static,
    ) -> Self {
        ApprovalPolicy {
            rule: Rule::When(Arc::new(requires)),
        }
    }

    /// Whether the policy picks a call of `tool`, when that does not depend
    /// on the arguments; `None` when it does.
    fn picks_tool(&self, tool: &RegisteredTool) -> Option<bool> {
        match &self.rule {
            Rule::Marked => Some(false),
            Rule::MayDestroy => Some(tool.may_destroy()),
            Rule::Every => Some(true),
            Rule::When(_) => None,
        }
    }

    fn picks(&self, tool: &RegisteredTool, arguments: &Value) -> bool {
        match &self.rule {
            Rule::When(pick) => pick(tool, arguments),
            _ => self.picks_tool(tool).unwrap_or(true),
        }
    }
}

impl fmt::Debug for ApprovalPolicy {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(match self.rule {
            Rule::Marked => "ApprovalPolicy::marked_tools()",
            Rule::MayDestroy => "ApprovalPolicy::may_destroy()",
            Rule::Every => "ApprovalPolicy::every_tool()",
            Rule::When(_) => "ApprovalPolicy::when(..)",
        })
    }
}

/// How approval is obtained.
#[derive(Clone)]
pub(crate) enum Asking {
    /// The batch returns a sealed suspension; see [`crate::execute_batch`].
    #[cfg(feature = "approval-state")]
    Suspend {
        key: ApprovalKey,
        ttl: Duration,
        ledger: Arc<dyn SuspensionLedger>,
        lease: Duration,
    },
    /// Someone answers while the call waits (a terminal prompt, an MCP
    /// client's elicitation).
    Ask(Arc<AskFn>),
}

/// Approvals for [`RunOptions::with_approvals`](crate::RunOptions::with_approvals):
/// which calls need a person's approval, and how to get it. Either the
/// batch suspends ([`suspend`](Self::suspend): a web app shows the pending
/// calls, stores the sealed state, and resumes minutes or a restart later
/// with [`resume_batch`](crate::resume_batch)), or a function is asked
/// while the call waits ([`ask`](Self::ask)).
///
/// ```
/// # #[cfg(feature = "approval-state")] {
/// use tool_core::approval::{ApprovalKey, ApprovalPolicy, Approvals, Decision};
/// use tool_core::RunOptions;
///
/// let key = ApprovalKey::new(*b"a secret of 32 bytes or more!!!!").unwrap();
/// let durable = RunOptions::new()
///     .with_approvals(Approvals::suspend(key).with_policy(ApprovalPolicy::may_destroy()));
///
/// let inline = RunOptions::new().with_approvals(Approvals::ask(|request| async move {
///     if request.tool_name == "write" { Decision::Approve } else { Decision::deny("not today") }
/// }));
/// # let _ = (durable, inline);
/// # }
/// ```
#[derive(Clone)]
pub struct Approvals {
    pub(crate) asking: Asking,
    policy: ApprovalPolicy,
    standing: StandingDecisions,
}

impl Approvals {
    /// Suspend batches that reach a call needing approval, sealing their
    /// state with `key`. Each state is valid for
    /// [`DEFAULT_SUSPENSION_TTL`] from the batch's first suspension and is
    /// resumed at most once by everything in this process that holds the
    /// same key ([`MemoryLedger::for_key`]; see
    /// [`with_ledger`](Self::with_ledger) for several processes).
    #[cfg(feature = "approval-state")]
    #[cfg_attr(docsrs, doc(cfg(feature = "approval-state")))]
    pub fn suspend(key: ApprovalKey) -> Self {
        let ledger = Arc::new(MemoryLedger::for_key(&key));
        Approvals {
            asking: Asking::Suspend {
                key,
                ttl: DEFAULT_SUSPENSION_TTL,
                ledger,
                lease: DEFAULT_RESUME_LEASE,
            },
            policy: ApprovalPolicy::marked_tools(),
            standing: StandingDecisions::new(),
        }
    }

    /// Ask `ask` while the call waits; the call runs, runs with edited
    /// arguments, is answered with a result from outside, or is denied as
    /// it answers. The wait ends with the caller's signal (the call is
    /// answered `cancelled`).
    pub fn ask<F, Fut>(ask: F) -> Self
    where
        F: Fn(ApprovalRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Decision> + Send + 'static,
    {
        Approvals {
            asking: Asking::Ask(Arc::new(move |request| Box::pin(ask(request)))),
            policy: ApprovalPolicy::marked_tools(),
            standing: StandingDecisions::new(),
        }
    }

    /// Which calls need approval besides those of the marked tools.
    pub fn with_policy(mut self, policy: ApprovalPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Which calls need approval besides those of the marked tools.
    pub fn policy(&self) -> &ApprovalPolicy {
        &self.policy
    }

    /// How long a suspension stays valid, from the batch's first
    /// suspension (suspending approvals only; a resume that leaves calls
    /// waiting keeps the first expiry).
    #[cfg(feature = "approval-state")]
    #[cfg_attr(docsrs, doc(cfg(feature = "approval-state")))]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        if let Asking::Suspend { ttl: current, .. } = &mut self.asking {
            *current = ttl;
        }
        self
    }

    /// Where resumes are recorded (suspending approvals only): one ledger
    /// every process resuming with this key shares.
    #[cfg(feature = "approval-state")]
    #[cfg_attr(docsrs, doc(cfg(feature = "approval-state")))]
    pub fn with_ledger(mut self, ledger: impl SuspensionLedger) -> Self {
        if let Asking::Suspend {
            ledger: current, ..
        } = &mut self.asking
        {
            *current = Arc::new(ledger);
        }
        self
    }

    /// How long a resume holds its claim without renewing it
    /// ([`DEFAULT_RESUME_LEASE`]; suspending approvals only).
    #[cfg(feature = "approval-state")]
    #[cfg_attr(docsrs, doc(cfg(feature = "approval-state")))]
    pub fn with_resume_lease(mut self, lease: Duration) -> Self {
        if let Asking::Suspend { lease: current, .. } = &mut self.asking {
            *current = lease;
        }
        self
    }

    /// The run's standing decisions (see [`StandingDecisions`]), carried in
    /// from an earlier request.
    pub fn with_standing(mut self, standing: StandingDecisions) -> Self {
        self.standing = standing;
        self
    }

    /// The run's standing decisions: the ones given, and those added by
    /// [`Decision::AlwaysApprove`] and [`Decision::AlwaysDeny`] since.
    pub fn standing(&self) -> &StandingDecisions {
        &self.standing
    }

    /// Whether these approvals suspend batches (rather than ask inline).
    pub fn suspends(&self) -> bool {
        match self.asking {
            #[cfg(feature = "approval-state")]
            Asking::Suspend { .. } => true,
            Asking::Ask(_) => false,
        }
    }

    /// Whether a call of `tool` with `arguments` (as parsed) needs
    /// approval under these approvals.
    pub fn requires(&self, tool: &RegisteredTool, arguments: &Value) -> bool {
        tool.needs_approval() || self.policy.picks(tool, arguments)
    }

    /// Whether some call of `tool` may need approval under these
    /// approvals: `false` only when none can, whatever its arguments (a
    /// check before parsing them).
    pub fn may_require(&self, tool: &RegisteredTool) -> bool {
        tool.needs_approval() || self.policy.picks_tool(tool) != Some(false)
    }

    /// Whether a call of `tool` needs approval, when that does not depend
    /// on its arguments; `None` when it does.
    pub(crate) fn requires_tool(&self, tool: &RegisteredTool) -> Option<bool> {
        if tool.needs_approval() {
            return Some(true);
        }
        self.policy.picks_tool(tool)
    }
}

impl fmt::Debug for Approvals {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match &self.asking {
            #[cfg(feature = "approval-state")]
            Asking::Suspend { ttl, lease, .. } => {
                format!("suspend (valid {ttl:?}, resume lease {lease:?})")
            }
            Asking::Ask(_) => "ask".to_owned(),
        };
        out.debug_struct("Approvals")
            .field("asking", &how)
            .field("policy", &self.policy)
            .field("standing", &self.standing)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DynamicTool, ToolAnnotations, ToolOutput, ToolRegistry};

    fn registered(annotations: ToolAnnotations, trusted: bool) -> RegisteredTool {
        let mut tool = DynamicTool::new("t", "a tool", |_args, _ctx| async {
            Ok(ToolOutput::text("ok"))
        })
        .with_annotations(annotations);
        if !trusted {
            tool = tool.with_untrusted_hints();
        }
        let mut tools = ToolRegistry::new();
        tools.register(tool).unwrap();
        tools.get("t").unwrap().clone()
    }

    #[test]
    fn may_destroy_asks_about_every_tool_whose_hints_are_not_trusted() {
        let policy = ApprovalPolicy::may_destroy();
        let read_only = ToolAnnotations::new().read_only();
        let only_adds = ToolAnnotations::new().destructive(false);
        assert_eq!(policy.picks_tool(&registered(read_only.clone(), true)), Some(false));
        assert_eq!(policy.picks_tool(&registered(only_adds.clone(), true)), Some(false));
        assert_eq!(policy.picks_tool(&registered(read_only, false)), Some(true));
        assert_eq!(policy.picks_tool(&registered(only_adds, false)), Some(true));
        assert_eq!(
            policy.picks_tool(&registered(ToolAnnotations::new(), true)),
            Some(true)
        );
    }
}
