//! Which calls need a person's approval, and how it is asked.

use super::key::ApprovalKey;
use super::ledger::{MemoryLedger, SuspensionLedger};
use super::request::{ApprovalRequest, Decision};
use crate::registry::RegisteredTool;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// How long a suspension may wait for its decisions unless the application
/// says otherwise: a working day, for a person who steps away.
pub const DEFAULT_SUSPENSION_TTL: Duration = Duration::from_secs(24 * 60 * 60);

type AskFn =
    dyn Fn(ApprovalRequest) -> Pin<Box<dyn Future<Output = Decision> + Send>> + Send + Sync;

/// Which tools need approval beyond those that ask for it themselves
/// ([`Tool::needs_approval`](crate::Tool::needs_approval), always honoured).
#[derive(Clone)]
pub struct ApprovalPolicy {
    requires: Arc<dyn Fn(&RegisteredTool) -> bool + Send + Sync>,
}

impl ApprovalPolicy {
    /// Only the tools marked `needs_approval` (the default).
    pub fn marked_tools() -> Self {
        ApprovalPolicy::when(|_| false)
    }

    /// Also every tool that may destroy: not marked read-only, and not
    /// marked `destructive = false` ([`ToolAnnotations::may_destroy`](crate::ToolAnnotations::may_destroy)).
    pub fn may_destroy() -> Self {
        ApprovalPolicy::when(|tool| tool.annotations().may_destroy())
    }

    /// Every tool.
    pub fn every_tool() -> Self {
        ApprovalPolicy::when(|_| true)
    }

    /// Also the tools `requires` picks (by name, annotations, ...).
    pub fn when(requires: impl Fn(&RegisteredTool) -> bool + Send + Sync + 'static) -> Self {
        ApprovalPolicy {
            requires: Arc::new(requires),
        }
    }
}

impl fmt::Debug for ApprovalPolicy {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str("ApprovalPolicy(..)")
    }
}

/// How approval is obtained.
#[derive(Clone)]
pub(crate) enum Asking {
    /// The batch returns a signed suspension; see [`crate::execute_batch`].
    Suspend {
        key: ApprovalKey,
        ttl: Duration,
        ledger: Arc<dyn SuspensionLedger>,
    },
    /// Someone answers while the call waits (a terminal prompt, an MCP
    /// client's elicitation).
    Ask(Arc<AskFn>),
}

/// Approvals for [`RunOptions::with_approvals`](crate::RunOptions::with_approvals):
/// which calls need a person's approval, and how to get it. Either the
/// batch suspends ([`suspend`](Self::suspend): a web app shows the pending
/// calls, stores the signed state, and resumes minutes or a restart later
/// with [`resume_batch`](crate::resume_batch)), or a function is asked
/// while the call waits ([`ask`](Self::ask)).
///
/// ```
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
/// ```
#[derive(Clone)]
pub struct Approvals {
    pub(crate) asking: Asking,
    policy: ApprovalPolicy,
}

impl Approvals {
    /// Suspend batches that reach a call needing approval, signing their
    /// state with `key`. Each state is valid for
    /// [`DEFAULT_SUSPENSION_TTL`] and resumes once (this process remembers
    /// the ones resumed: see [`with_ledger`](Self::with_ledger) for several
    /// processes).
    pub fn suspend(key: ApprovalKey) -> Self {
        Approvals {
            asking: Asking::Suspend {
                key,
                ttl: DEFAULT_SUSPENSION_TTL,
                ledger: Arc::new(MemoryLedger::default()),
            },
            policy: ApprovalPolicy::marked_tools(),
        }
    }

    /// Ask `ask` while the call waits; the call runs, runs with edited
    /// arguments, or is denied as it answers. The wait ends with the
    /// caller's signal (the call is answered `cancelled`).
    pub fn ask<F, Fut>(ask: F) -> Self
    where
        F: Fn(ApprovalRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Decision> + Send + 'static,
    {
        Approvals {
            asking: Asking::Ask(Arc::new(move |request| Box::pin(ask(request)))),
            policy: ApprovalPolicy::marked_tools(),
        }
    }

    /// Which tools need approval besides the marked ones.
    pub fn with_policy(mut self, policy: ApprovalPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// How long a suspension stays valid (suspending approvals only).
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        if let Asking::Suspend { ttl: current, .. } = &mut self.asking {
            *current = ttl;
        }
        self
    }

    /// Where resumed suspensions are recorded (suspending approvals only):
    /// one ledger every resuming process shares.
    pub fn with_ledger(mut self, ledger: impl SuspensionLedger) -> Self {
        if let Asking::Suspend {
            ledger: current, ..
        } = &mut self.asking
        {
            *current = Arc::new(ledger);
        }
        self
    }

    /// Whether these approvals suspend batches (rather than ask inline).
    pub fn suspends(&self) -> bool {
        matches!(self.asking, Asking::Suspend { .. })
    }

    /// Whether a call of `tool` needs approval under these approvals.
    pub fn requires(&self, tool: &RegisteredTool) -> bool {
        tool.needs_approval() || (self.policy.requires)(tool)
    }
}

impl fmt::Debug for Approvals {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match &self.asking {
            Asking::Suspend { ttl, .. } => format!("suspend (valid {ttl:?})"),
            Asking::Ask(_) => "ask".to_owned(),
        };
        out.debug_struct("Approvals")
            .field("asking", &how)
            .finish_non_exhaustive()
    }
}
