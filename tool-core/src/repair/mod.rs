//! Opt-in repair of a model's near-miss arguments, guided by the tool's
//! JSON Schema: `{"limit":"2"}` where an integer is wanted, an object sent
//! as JSON text, one value where a list is wanted, `"Fast"` for `"fast"`.
//!
//! Repair runs only when strict parsing failed and the caller turned it on
//! ([`RunOptions::with_repair`](crate::RunOptions::with_repair)); the
//! default path is exactly as strict as the schema. Nothing is repaired
//! silently: every change is a [`Repair`] on the result, and the model is
//! told in a trailing note unless the policy says otherwise. Repaired
//! arguments that still do not parse are refused, in the words of what the
//! model sent, with the rule a repaired value broke (`limit: expected
//! integer <= 20, got string "50"`), and nothing is recorded as repaired.

mod note;
mod refusal;
mod walk;

pub use crate::model::{MAX_REPAIR_VALUE_BYTES, Repair, RepairRule};
pub use note::{MAX_NOTE_CHARS, repair_note};
pub(crate) use refusal::refusal;
pub use walk::repair_arguments;

/// Which repairs a caller allows, and whether the model is told about them.
///
/// ```
/// use tool_core::{repair::RepairPolicy, repair::RepairRule};
///
/// let policy = RepairPolicy::all().without(RepairRule::WrapInArray).silent();
/// assert!(policy.allows(RepairRule::StringToScalar));
/// assert!(!policy.allows(RepairRule::WrapInArray));
/// assert!(!policy.tells_model());
/// assert!(!RepairPolicy::none().allows(RepairRule::EnumCase));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RepairPolicy {
    rules: u8,
    tell_model: bool,
}

impl RepairPolicy {
    /// Every rule, and a note to the model.
    pub fn all() -> Self {
        RepairPolicy {
            rules: RepairRule::ALL
                .iter()
                .fold(0, |bits, rule| bits | rule.bit()),
            tell_model: true,
        }
    }

    /// No rule (add them with [`with`](Self::with)), and a note to the model.
    pub fn none() -> Self {
        RepairPolicy {
            rules: 0,
            tell_model: true,
        }
    }

    /// Allows `rule` too.
    pub fn with(mut self, rule: RepairRule) -> Self {
        self.rules |= rule.bit();
        self
    }

    /// Allows everything but `rule`.
    pub fn without(mut self, rule: RepairRule) -> Self {
        self.rules &= !rule.bit();
        self
    }

    /// Records repairs on the result without the trailing note to the model.
    pub fn silent(mut self) -> Self {
        self.tell_model = false;
        self
    }

    /// Whether `rule` may repair.
    pub fn allows(&self, rule: RepairRule) -> bool {
        rule.bit() != 0 && self.rules & rule.bit() != 0
    }

    /// Whether the model is told, in a trailing text item, what was repaired.
    pub fn tells_model(&self) -> bool {
        self.tell_model
    }
}
