//! A tool that runs other tools (a code mode) suspending its own call: one
//! of its inner calls needs a person's approval that only a suspension can
//! get, so the tool stops, hands the executor that inner call's request and
//! a state of its own, and its call becomes a pending call of the batch's
//! [`Suspension`](crate::approval::Suspension), its state sealed with the
//! rest. When the batch is resumed with a decision for that inner call,
//! the tool's call runs again, and [`ToolContext::resumed`] gives it its
//! state and the decision.
//!
//! Only [`execute_batch`](crate::execute_batch) and
//! [`resume_batch`](crate::resume_batch) can suspend; a call run any other
//! way is never offered to (its inner calls are then answered that no one
//! approved them, as every call outside a batch is).

use super::run_options::RunOptions;
use super::suspend::waits_for_person;
use crate::approval::{ApprovalRequest, Resumed};
use crate::model::ToolCall;
use crate::registry::ToolRegistry;
use crate::tool::{ToolContext, ToolError};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

/// One run's record of the calls that may suspend themselves, of those
/// that did, and of what the resumed ones left; shared by the calls of
/// one `execute_batch` or `resume_batch`.
#[derive(Debug, Default)]
pub(crate) struct Suspender {
    /// The calls that may suspend themselves: calls of tools that run
    /// tools, each with an id no other call of the batch has (a decision
    /// names its call by id).
    allowed: HashSet<String>,
    /// What each resumed call's earlier suspension left, by call id.
    resumed: HashMap<String, Arc<Resumed>>,
    /// The calls that suspended themselves in this run, by call id: the
    /// inner call's request and the tool's state.
    filed: Mutex<HashMap<String, (ApprovalRequest, Value)>>,
}

impl Suspender {
    pub(crate) fn new(allowed: HashSet<String>, resumed: HashMap<String, Arc<Resumed>>) -> Self {
        Suspender {
            allowed,
            resumed,
            filed: Mutex::default(),
        }
    }

    /// Whether call `id` suspended itself.
    pub(crate) fn suspended(&self, id: &str) -> bool {
        self.filed().contains_key(id)
    }

    /// Whether any call suspended itself.
    pub(crate) fn any(&self) -> bool {
        !self.filed().is_empty()
    }

    /// What call `id` suspended with, taken out.
    pub(crate) fn take(&self, id: &str) -> Option<(ApprovalRequest, Value)> {
        self.filed().remove(id)
    }

    fn filed(&self) -> std::sync::MutexGuard<'_, HashMap<String, (ApprovalRequest, Value)>> {
        self.filed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Call `id`'s hold on this run's suspension, if it may suspend.
    pub(crate) fn for_call(self: &Arc<Self>, id: &str) -> Option<CallSuspension> {
        if !self.allowed.contains(id) {
            return None;
        }
        Some(CallSuspension {
            suspender: Arc::clone(self),
            call_id: id.to_owned(),
            resumed: self.resumed.get(id).cloned(),
        })
    }
}

/// One call's hold on its run's [`Suspender`], in its [`ToolContext`].
pub(crate) struct CallSuspension {
    suspender: Arc<Suspender>,
    call_id: String,
    resumed: Option<Arc<Resumed>>,
}

/// The ids of the calls of `calls` that may suspend themselves: those of
/// tools that run tools ([`Tool::runs_tools`](crate::Tool::runs_tools)),
/// each with an id of its own in the batch.
pub(crate) fn self_suspending<'a>(
    calls: impl IntoIterator<Item = &'a ToolCall>,
    registry: &ToolRegistry,
) -> HashSet<String> {
    let mut uses: HashMap<&str, usize> = HashMap::new();
    let mut running_tools = Vec::new();
    for call in calls {
        *uses.entry(call.id.as_str()).or_default() += 1;
        if registry
            .get(&call.name)
            .is_some_and(|tool| tool.runs_tools())
        {
            running_tools.push(call.id.as_str());
        }
    }
    running_tools
        .into_iter()
        .filter(|id| uses[id] == 1)
        .map(str::to_owned)
        .collect()
}

/// Suspending from inside a tool that runs other tools.
impl ToolContext {
    /// For a tool that runs other tools ([`Tool::runs_tools`](crate::Tool::runs_tools)):
    /// the approval its inner `call` would wait for, when that call needs a
    /// person's approval which only a suspension can get (suspending
    /// [`Approvals`](crate::approval::Approvals) on the options) and this
    /// call can suspend (it runs in [`execute_batch`](crate::execute_batch)
    /// or [`resume_batch`](crate::resume_batch)). The tool then does not
    /// run `call`: it stops and returns [`suspend`](Self::suspend)'s error.
    ///
    /// `None` when `call` is to run through the executor as any call: it
    /// needs no approval, a standing decision or an inline asker decides
    /// it, its arguments do not parse, or this call cannot suspend (the
    /// executor then answers it that no one approved it).
    ///
    /// `call` is the inner call as it would run: its own id (unique in the
    /// outer call, and the same when the outer call runs again), its tool
    /// and arguments; `registry` is where its tool is.
    pub fn would_suspend(
        &self,
        call: &ToolCall,
        registry: &ToolRegistry,
    ) -> Option<ApprovalRequest> {
        self.call_suspension()?;
        let options = self.run_options()?;
        if options
            .approved
            .as_ref()
            .is_some_and(|approved| approved.contains_key(&call.id))
        {
            return None;
        }
        waits_for_person(call, registry, options).map(|(request, _repairs)| request)
    }

    /// Suspends this call for `request` (what [`would_suspend`](Self::would_suspend)
    /// gave), with `state`: whatever the tool needs to go on when it is
    /// resumed (a code mode's journal of the inner calls it already made,
    /// and their results). Returns the error the tool returns at once.
    ///
    /// The batch then returns [`BatchOutcome::Suspended`](crate::BatchOutcome::Suspended)
    /// with `request` among its [pending](crate::approval::Suspension::pending)
    /// calls (decided by `request.tool_call_id`, the inner call's id), and
    /// `state` sealed in it: no one holding the suspension can read or
    /// change it. When the batch is resumed with a decision for it, this
    /// call runs again with the same arguments, and
    /// [`resumed`](Self::resumed) gives the state and the decision. A call
    /// that cannot suspend gets an error saying so, and nothing is filed.
    pub fn suspend(&self, request: ApprovalRequest, state: Value) -> ToolError {
        let Some(hold) = self.call_suspension() else {
            return "this call cannot suspend: only a call of a tool that runs tools, run by \
                    execute_batch or resume_batch with suspending approvals, can"
                .into();
        };
        let tool = request.tool_name.clone();
        hold.suspender
            .filed()
            .entry(hold.call_id.clone())
            .or_insert((request, state));
        format!("suspended until a person decides on its call of {tool}").into()
    }

    /// Whether this call can [suspend](Self::suspend) itself: a call of a
    /// tool that runs tools, in [`execute_batch`](crate::execute_batch) or
    /// [`resume_batch`](crate::resume_batch) with suspending approvals. A
    /// tool that keeps a record only to suspend with (a code mode's journal
    /// of its inner calls) keeps none otherwise.
    pub fn can_suspend(&self) -> bool {
        self.call_suspension().is_some()
    }

    /// What this call's earlier suspension left, when it is a resumed call
    /// that [suspended itself](Self::suspend): the state it suspended with,
    /// the inner call that waited, and the person's decision for it.
    /// `None` for every other call.
    pub fn resumed(&self) -> Option<&Resumed> {
        self.call_suspension()?.resumed.as_deref()
    }

    fn call_suspension(&self) -> Option<&CallSuspension> {
        self.suspension.as_deref()?.downcast_ref()
    }
}

/// The options a tool that runs tools receives: the call's own, without
/// the run's suspension (its inner calls cannot suspend the batch
/// themselves: the tool does, for them).
pub(crate) fn for_running_tools(ctx: &RunOptions) -> RunOptions {
    let mut options = ctx.clone();
    options.suspender = None;
    options
}

#[cfg(test)]
#[cfg(feature = "derive")]
mod tests {
    use crate::approval::{ApprovalKey, Approvals, Decision, InnerDecision};
    use crate::{
        BatchOutcome, ExecutionMode, RunOptions, Tool, ToolCall, ToolContext, ToolError,
        ToolOutput, ToolParams, ToolRegistry, execute_batch, execute_tool_call, resume_batch,
    };
    use serde_json::{Value, json};
    use std::sync::{Arc, Mutex};

    #[derive(ToolParams)]
    struct Amount {
        n: u32,
    }

    /// Needs a person's approval; records each run.
    struct Pay(Arc<Mutex<Vec<u32>>>);

    impl Tool for Pay {
        type Params = Amount;
        type Details = ();

        fn name(&self) -> &str {
            "pay"
        }

        fn description(&self) -> &str {
            "Pay"
        }

        fn needs_approval(&self) -> bool {
            true
        }

        async fn execute(
            &self,
            params: Amount,
            _ctx: ToolContext,
        ) -> Result<ToolOutput<()>, ToolError> {
            self.0.lock().unwrap().push(params.n);
            Ok(ToolOutput::text(format!("paid {}", params.n)))
        }
    }

    #[derive(ToolParams)]
    struct Nothing {}

    /// Runs `pay {"n": 2}` as its inner call `<id>.1`, suspending for it
    /// when it can, and records the states it resumes with.
    struct Wrapper {
        inner: Arc<ToolRegistry>,
        resumed: Arc<Mutex<Vec<Value>>>,
    }

    impl Tool for Wrapper {
        type Params = Nothing;
        type Details = ();

        fn name(&self) -> &str {
            "wrapper"
        }

        fn description(&self) -> &str {
            "Runs pay"
        }

        fn runs_tools(&self) -> bool {
            true
        }

        async fn execute(&self, _: Nothing, ctx: ToolContext) -> Result<ToolOutput<()>, ToolError> {
            let options = ctx.run_options().cloned().unwrap_or_default();
            let inner = ToolCall::new(format!("{}.1", ctx.call_id), "pay", json!({"n": 2}));
            let call = match ctx.resumed() {
                Some(resumed) => {
                    self.resumed.lock().unwrap().push(resumed.state.clone());
                    assert_eq!(resumed.request.tool_call_id, inner.id);
                    match &resumed.decision {
                        InnerDecision::Run(call) => call.clone(),
                        InnerDecision::Answered(result) => {
                            let said = result.content[0].as_text().unwrap_or_default();
                            return Ok(ToolOutput::text(format!("inner: {said}")));
                        }
                    }
                }
                None => {
                    if let Some(request) = ctx.would_suspend(&inner, &self.inner) {
                        return Err(ctx.suspend(request, json!({"step": 1})));
                    }
                    inner
                }
            };
            let result = execute_tool_call(&call, &self.inner, options).await;
            let said = result.content[0].as_text().unwrap_or_default();
            Ok(ToolOutput::text(format!("inner: {said}")))
        }
    }

    struct Fixture {
        tools: ToolRegistry,
        paid: Arc<Mutex<Vec<u32>>>,
        resumed: Arc<Mutex<Vec<Value>>>,
    }

    fn fixture() -> Fixture {
        let paid = Arc::new(Mutex::new(Vec::new()));
        let resumed = Arc::new(Mutex::new(Vec::new()));
        let mut inner = ToolRegistry::new();
        inner.register(Pay(Arc::clone(&paid))).unwrap();
        inner
            .register(crate::DynamicTool::new(
                "echo",
                "Echo",
                |_args, _ctx| async { Ok(ToolOutput::text("echoed")) },
            ))
            .unwrap();
        let mut tools = inner.clone();
        tools
            .register(Wrapper {
                inner: Arc::new(inner),
                resumed: Arc::clone(&resumed),
            })
            .unwrap();
        Fixture {
            tools,
            paid,
            resumed,
        }
    }

    fn options() -> RunOptions {
        let key = ApprovalKey::new(*b"self-suspending tools, 32 bytes!").unwrap();
        RunOptions::new().with_approvals(Approvals::suspend(key))
    }

    fn calls() -> [ToolCall; 2] {
        [
            ToolCall::new("c1", "wrapper", json!({})),
            ToolCall::new("c2", "echo", json!({})),
        ]
    }

    fn texts(outcome: BatchOutcome) -> Vec<String> {
        let BatchOutcome::Complete(results) = outcome else {
            panic!("not complete: {outcome:?}")
        };
        results
            .iter()
            .map(|result| result.content[0].as_text().unwrap().to_owned())
            .collect()
    }

    #[tokio::test]
    async fn a_tool_that_runs_tools_suspends_itself_and_resumes_with_its_state() {
        let fixture = fixture();
        let outcome =
            execute_batch(&calls(), &fixture.tools, options(), ExecutionMode::Parallel).await;
        let BatchOutcome::Suspended(suspension) = outcome else {
            panic!("not suspended: {outcome:?}")
        };
        let pending: Vec<_> = suspension.pending().collect();
        assert_eq!(pending.len(), 1);
        assert_eq!(
            (
                pending[0].tool_call_id.as_str(),
                pending[0].tool_name.as_str()
            ),
            ("c1.1", "pay")
        );
        assert_eq!(pending[0].arguments, json!({"n": 2}));
        assert!(pending[0].expires_at_ms.is_some());
        let answered: Vec<_> = suspension
            .answered()
            .map(|r| r.tool_call_id.as_str())
            .collect();
        assert_eq!(answered, ["c2"]);
        assert!(fixture.paid.lock().unwrap().is_empty());

        let resumed = resume_batch(
            &suspension,
            [("c1.1", Decision::Approve)],
            &fixture.tools,
            options(),
            ExecutionMode::Parallel,
        )
        .await
        .unwrap();
        assert_eq!(texts(resumed), ["inner: paid 2", "echoed"]);
        assert_eq!(*fixture.paid.lock().unwrap(), [2]);
        assert_eq!(*fixture.resumed.lock().unwrap(), [json!({"step": 1})]);
        // Once: the ledger refuses the same state again.
        let again = resume_batch(
            &suspension,
            [("c1.1", Decision::Approve)],
            &fixture.tools,
            options(),
            ExecutionMode::Parallel,
        )
        .await;
        assert!(again.is_err());
        assert_eq!(*fixture.paid.lock().unwrap(), [2]);
    }

    #[tokio::test]
    async fn a_denied_inner_call_comes_back_answered_and_does_not_run() {
        let fixture = fixture();
        let outcome =
            execute_batch(&calls(), &fixture.tools, options(), ExecutionMode::Parallel).await;
        let BatchOutcome::Suspended(suspension) = outcome else {
            panic!("not suspended")
        };
        let resumed = resume_batch(
            &suspension,
            [("c1.1", Decision::deny("no"))],
            &fixture.tools,
            options(),
            ExecutionMode::Parallel,
        )
        .await
        .unwrap();
        assert_eq!(
            texts(resumed),
            ["inner: A person denied this call: no", "echoed"]
        );
        assert!(fixture.paid.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn in_sequential_mode_the_calls_after_a_suspended_one_wait_their_turn() {
        let fixture = fixture();
        let outcome = execute_batch(
            &calls(),
            &fixture.tools,
            options(),
            ExecutionMode::Sequential,
        )
        .await;
        let BatchOutcome::Suspended(suspension) = outcome else {
            panic!("not suspended")
        };
        assert_eq!(suspension.waiting_for_turn().collect::<Vec<_>>(), ["c2"]);
        assert_eq!(suspension.answered().count(), 0);
        let resumed = resume_batch(
            &suspension,
            [("c1.1", Decision::Approve)],
            &fixture.tools,
            options(),
            ExecutionMode::Sequential,
        )
        .await
        .unwrap();
        assert_eq!(texts(resumed), ["inner: paid 2", "echoed"]);
    }

    #[tokio::test]
    async fn outside_a_batch_nothing_suspends_and_the_inner_call_is_refused() {
        let fixture = fixture();
        let call = ToolCall::new("c1", "wrapper", json!({}));
        let result = execute_tool_call(&call, &fixture.tools, options()).await;
        let said = result.content[0].as_text().unwrap();
        assert!(
            said.contains("needs a person's approval, and got none"),
            "{said}"
        );
        assert!(fixture.paid.lock().unwrap().is_empty());

        let alone = ToolContext::new("c9");
        assert!(alone.resumed().is_none());
        let request = crate::approval::ApprovalRequest::new(
            String::new(),
            "c9.1",
            "pay",
            "Pay",
            &Default::default(),
            json!({}),
        );
        assert!(
            alone
                .suspend(request, json!(null))
                .to_string()
                .contains("cannot suspend")
        );
    }
}
