//! A call's arguments, from what the model sent to parsed parameters: JSON
//! text decoded, the strict parse, and (only when that fails and the caller
//! asked for it) schema-guided repair and a second parse. A before hook's
//! rewrite is parsed the same way.

use super::error_type::{ErrorType, Failed};
use crate::model::FailureKind;
use crate::model::{Repair, RepairRule};
use crate::model::{ToolCall, ToolResultMessage};
use crate::params::ParamError;
use crate::registry::{PreparedCall, RegisteredTool};
use crate::repair::{RepairPolicy, repair_arguments};
use serde_json::Value;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A call's paired failure and why: arguments that do not parse, or a
/// panic in the code that parses or writes them.
type Failure = Box<Failed>;

/// Parsed arguments, ready to run, and what was repaired to get them.
pub(crate) struct Parsed<'a> {
    pub prepared: PreparedCall<'a>,
    pub repairs: Vec<Repair>,
}

/// Decodes, parses, and repairs when the policy allows; a failure is the
/// paired error the strict parse gave, with the rules a repaired value
/// then broke said of what was sent (`limit: expected integer <= 20, got
/// string "50"`: see [`refusal`](crate::repair::refusal)).
#[inline]
pub(crate) fn parse<'a>(
    call: &ToolCall,
    tool: &'a RegisteredTool,
    policy: Option<&RepairPolicy>,
) -> Result<Parsed<'a>, Failure> {
    let decoded;
    let arguments = match decode_string_arguments(&call.arguments) {
        None => &call.arguments,
        Some(Ok(value)) => {
            decoded = value;
            &decoded
        }
        // Text that is not JSON: only the empty-arguments rule can help.
        Some(Err(problem)) => {
            return repaired(call, tool, &call.arguments, policy, None)
                .unwrap_or_else(|| Err(invalid(ToolResultMessage::failure(call, &problem))));
        }
    };
    match prepare(call, tool, arguments)? {
        Ok(prepared) => Ok(Parsed {
            prepared,
            repairs: Vec::new(),
        }),
        Err(problems) => {
            repaired(call, tool, arguments, policy, Some(&problems)).unwrap_or_else(|| {
                Err(invalid(ToolResultMessage::failure(
                    call,
                    &problems.to_string(),
                )))
            })
        }
    }
}

/// The arguments repaired and parsed again; `None` when repair is off,
/// changed nothing, or did not make them parse and there are no `strict`
/// problems (arguments that were not JSON) to tell with what the repaired
/// parse found. Repairs that did not make the arguments parse are not
/// recorded: they were not used.
fn repaired<'a>(
    call: &ToolCall,
    tool: &'a RegisteredTool,
    arguments: &Value,
    policy: Option<&RepairPolicy>,
    strict: Option<&ParamError>,
) -> Option<Result<Parsed<'a>, Failure>> {
    let (fixed, repairs) = repair_arguments(tool.parameters(), arguments, policy?)?;
    match prepare(call, tool, &fixed) {
        Err(panicked) => Some(Err(panicked)),
        Ok(Ok(prepared)) => Some(Ok(Parsed { prepared, repairs })),
        Ok(Err(after)) => {
            let told = crate::repair::refusal(strict?, &after, &repairs);
            Some(Err(invalid(ToolResultMessage::failure(
                call,
                &told.to_string(),
            ))))
        }
    }
}

/// The before hook's (or an approver's) replacement arguments, parsed as
/// the model's are (JSON text decoded too), as JSON, and the change
/// recorded like a repair of `rule` (from the parsed arguments the hook saw
/// to the parsed replacement; the repair may keep only excerpts of them).
/// Replacement arguments that do not parse are a fatal failure: the model
/// cannot fix the caller's hook.
pub(crate) fn rewritten<'a>(
    call: &ToolCall,
    tool: &'a RegisteredTool,
    seen: &Value,
    replacement: &Value,
    rule: RepairRule,
) -> Result<(PreparedCall<'a>, Value, Repair), Failure> {
    let whose = match rule {
        RepairRule::Approval => "the approved arguments",
        _ => "the before hook's arguments",
    };
    let refused = |problem: &dyn std::fmt::Display| {
        invalid(ToolResultMessage::failed(
            call,
            &format!("{whose} do not parse: {problem}"),
            FailureKind::Fatal,
        ))
    };
    let decoded;
    let replacement = match decode_string_arguments(replacement) {
        None => replacement,
        Some(Ok(value)) => {
            decoded = value;
            &decoded
        }
        Some(Err(problem)) => return Err(refused(&problem)),
    };
    match prepare(call, tool, replacement)? {
        Ok(prepared) => {
            let used = arguments_of(call, &prepared)?;
            let repair = Repair::new("", seen, &used, rule);
            Ok((prepared, used, repair))
        }
        Err(problems) => Err(refused(&problems)),
    }
}

/// The parsed arguments as JSON (a user's `to_json` may panic: that is the
/// call's failure).
pub(crate) fn arguments_of(call: &ToolCall, prepared: &PreparedCall<'_>) -> Result<Value, Failure> {
    catch_unwind(AssertUnwindSafe(|| prepared.arguments()))
        .map_err(|payload| panicked(call, payload))
}

/// The strict parse. A user-written `ParamValue` could panic while parsing;
/// that is the call's failure (the outer `Err`), not the executor's.
fn prepare<'a>(
    call: &ToolCall,
    tool: &'a RegisteredTool,
    arguments: &Value,
) -> Result<Result<PreparedCall<'a>, ParamError>, Failure> {
    catch_unwind(AssertUnwindSafe(|| tool.prepare(arguments)))
        .map_err(|payload| panicked(call, payload))
}

/// Arguments that do not parse.
#[cold]
fn invalid(result: ToolResultMessage) -> Failure {
    Failed::boxed(result, ErrorType::InvalidArguments)
}

/// The tool's own code (its parameters' parser, or their `to_json`)
/// panicked.
#[cold]
fn panicked(call: &ToolCall, payload: Box<dyn std::any::Any + Send>) -> Failure {
    Failed::boxed(super::outcome::panicked(call, &*payload), ErrorType::Panic)
}

/// Arguments written as a JSON string (OpenAI sends them so) are decoded
/// first; text that is not valid JSON is reported with the JSON error's
/// line and column.
fn decode_string_arguments(arguments: &Value) -> Option<Result<Value, String>> {
    let Value::String(text) = arguments else {
        return None;
    };
    Some(serde_json::from_str(text).map_err(|error| format!("arguments: invalid JSON: {error}")))
}
