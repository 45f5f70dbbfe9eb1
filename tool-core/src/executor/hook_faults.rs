//! What a hook that fails or panics does to its call. A before hook's
//! error answers the call with the kind its [`ToolFailure`] says, as a
//! tool's error would (an internal one's message to the logs only). An
//! after hook's failure keeps the tool's own result, with a note: the tool
//! has already run, and a retry failure would invite the model to run a
//! destructive call again.
//!
//! [`ToolFailure`]: crate::ToolFailure

use super::catch_unwind::{CatchUnwind, panic_message};
use super::error_type::{ErrorType, Failed};
use super::outcome::{self, Told};
use crate::model::{Content, FailureKind};
use crate::model::{ToolCall, ToolResultMessage};
use crate::tool::ToolError;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// How a hook failed.
pub(super) enum HookFault {
    /// It returned this error.
    Failed(ToolError),
    /// It panicked with this message (at the call or while polled).
    Panicked(String),
}

/// Runs a hook, catching its panic at the call or while polled.
pub(super) async fn guarded<T, Fut>(start: impl FnOnce() -> Fut) -> Result<T, HookFault>
where
    Fut: Future<Output = Result<T, ToolError>> + Unpin,
{
    let future = match catch_unwind(AssertUnwindSafe(start)) {
        Ok(future) => future,
        Err(payload) => return Err(HookFault::Panicked(panic_message(&*payload))),
    };
    match CatchUnwind::new(future).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(HookFault::Failed(error)),
        Err(payload) => Err(HookFault::Panicked(panic_message(&*payload))),
    }
}

/// The answer to a call whose before hook failed, and why: its error keeps
/// its kind (an internal one redacted), a panic is a retry failure (a
/// `panic` on the span), as a tool's.
#[cold]
pub(super) fn before_hook_failed(call: &ToolCall, fault: HookFault) -> Box<Failed> {
    match fault {
        HookFault::Failed(error) => {
            let Told { kind, text } = outcome::told(call, &error, "before hook", &mut None);
            if kind != FailureKind::Internal {
                crate::trace::warn!(problem = %text, "the before hook failed; the call is answered with its problem");
            }
            let result =
                ToolResultMessage::failed(call, &format!("before hook failed: {text}"), kind);
            Failed::boxed(result, ErrorType::of_kind(Some(kind)))
        }
        HookFault::Panicked(payload) => {
            let problem = format!("before hook panicked: {payload}");
            crate::trace::warn!(%problem, "the before hook failed; the call is answered with its problem");
            Failed::boxed(ToolResultMessage::failure(call, &problem), ErrorType::Panic)
        }
    }
}

/// The tool's own result, kept when the after hook failed: the tool has
/// run, and answering with a retry failure would invite the model to run a
/// destructive call again. A note after the content says the hook failed:
/// with the hook's message, unless it is internal (the model reads a
/// reference to the log line) or a panic (a programming error: logged in
/// full, the model reads only that the hook failed). A `Fatal` from the
/// hook makes the result fatal; any other kind leaves the tool's.
#[cold]
pub(super) fn after_hook_failed(
    call: &ToolCall,
    mut kept: ToolResultMessage,
    fault: HookFault,
) -> ToolResultMessage {
    let note = match fault {
        HookFault::Failed(error) => {
            let Told { kind, text } = outcome::told(call, &error, "after hook", &mut None);
            if kind != FailureKind::Internal {
                crate::trace::warn!(problem = %text, "the after hook failed; the tool's result is sent as it was");
            }
            if kind == FailureKind::Fatal {
                kept.is_error = true;
                kept.failure_kind = Some(FailureKind::Fatal);
            }
            format!("[The after hook failed: {text}. The result above is the tool's own.]")
        }
        HookFault::Panicked(payload) => {
            crate::trace::error!(panic = %payload, "the after hook panicked; the tool's result is sent as it was");
            "[The after hook failed. The result above is the tool's own.]".to_owned()
        }
    };
    kept.content.push(Content::text(note));
    kept
}
