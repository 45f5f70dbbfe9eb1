//! What a result records of a change made to its call's arguments before
//! they parsed: by repair, by the before hook, by a person approving.

use super::excerpt;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// One kind of near miss a repair fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RepairRule {
    /// A string that is exactly a JSON number or boolean, where the schema
    /// wants a number, an integer or a boolean: `"2"` read as `2`.
    StringToScalar,
    /// A string of JSON text where the schema wants an object or an array:
    /// `"{\"tag\":\"x\"}"` read as `{"tag":"x"}`.
    JsonText,
    /// One value where the schema wants an array of such values: `"x"` read
    /// as `["x"]`.
    WrapInArray,
    /// A string that matches exactly one allowed value (of `enum` or
    /// `const`) when case and surrounding spaces are ignored: `"Fast"`
    /// read as `"fast"`.
    EnumCase,
    /// Arguments that are empty text, `null` or missing, read as `{}`.
    EmptyArguments,
    /// Not a rule to enable: the before hook answered "run with these
    /// arguments instead" ([`HookDecision::Rewrite`](crate::executor::HookDecision)),
    /// recorded like a repair so the change is visible.
    BeforeHook,
    /// Not a rule to enable: a person approved the call with edited
    /// arguments ([`Decision::ApproveWith`](crate::approval::Decision::ApproveWith)).
    Approval,
}

impl RepairRule {
    /// The rules a policy can enable, in the order they are described.
    pub const ALL: [RepairRule; 5] = [
        RepairRule::StringToScalar,
        RepairRule::JsonText,
        RepairRule::WrapInArray,
        RepairRule::EnumCase,
        RepairRule::EmptyArguments,
    ];

    /// What the rule did, in words for the model's note:
    /// `a number or boolean written as a string`.
    pub fn explanation(self) -> &'static str {
        match self {
            RepairRule::StringToScalar => "a number or boolean written as a string",
            RepairRule::JsonText => "an object or array written as JSON text",
            RepairRule::WrapInArray => "one value where a list is wanted",
            RepairRule::EnumCase => "an allowed value in the wrong case or with spaces",
            RepairRule::EmptyArguments => "empty arguments, read as {}",
            RepairRule::BeforeHook => "arguments replaced by the caller's before hook",
            RepairRule::Approval => "arguments edited by the person who approved the call",
        }
    }

    /// Its bit in a [`RepairPolicy`](crate::repair::RepairPolicy).
    #[cfg(feature = "runtime")]
    pub(crate) fn bit(self) -> u8 {
        match self {
            RepairRule::StringToScalar => 1,
            RepairRule::JsonText => 2,
            RepairRule::WrapInArray => 4,
            RepairRule::EnumCase => 8,
            RepairRule::EmptyArguments => 16,
            RepairRule::BeforeHook | RepairRule::Approval => 0,
        }
    }
}

impl RepairRule {
    /// Its name on the wire (serde's `snake_case` of the variant), which
    /// `Display` shows too.
    pub(crate) fn wire_name(self) -> &'static str {
        match self {
            RepairRule::StringToScalar => "string_to_scalar",
            RepairRule::JsonText => "json_text",
            RepairRule::WrapInArray => "wrap_in_array",
            RepairRule::EnumCase => "enum_case",
            RepairRule::EmptyArguments => "empty_arguments",
            RepairRule::BeforeHook => "before_hook",
            RepairRule::Approval => "approval",
        }
    }
}

impl fmt::Display for RepairRule {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(self.wire_name())
    }
}

/// One change made to a call's arguments before they parsed:
/// `{"path":"limit","sent":"2","used":2,"rule":"string_to_scalar"}`.
///
/// Bounded whatever was repaired: a `sent` or `used` whose compact JSON
/// text is longer than [`MAX_REPAIR_VALUE_BYTES`](super::MAX_REPAIR_VALUE_BYTES) is kept as an excerpt, a
/// string holding the first bytes of that text, with the text's full size
/// in `sent_bytes` / `used_bytes` (`sentBytes` / `usedBytes` on the wire,
/// left out when the value is whole). A `path` longer than 256 bytes is
/// cut and ends `…`.
///
/// ```
/// use serde_json::json;
/// use tool_core::repair::{MAX_REPAIR_VALUE_BYTES, Repair, RepairRule};
///
/// let small = Repair::new("limit", &json!("2"), &json!(2), RepairRule::StringToScalar);
/// assert_eq!(
///     serde_json::to_string(&small).unwrap(),
///     r#"{"path":"limit","sent":"2","used":2,"rule":"string_to_scalar"}"#
/// );
///
/// let text = format!("[{}1]", "1,".repeat(5_000_000));
/// let used: serde_json::Value = serde_json::from_str(&text).unwrap();
/// let large = Repair::new("ids", &json!(text), &used, RepairRule::JsonText);
/// assert_eq!(large.used_bytes, Some(10_000_003));
/// assert_eq!(large.used.as_str().unwrap().len(), MAX_REPAIR_VALUE_BYTES);
/// assert!(large.used.as_str().unwrap().starts_with("[1,1,1,"));
/// assert!(serde_json::to_string(&large).unwrap().len() < 700);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Repair {
    /// Where, as parse errors say it (`limit`, `items[2].name`; empty for
    /// the whole arguments).
    pub path: String,
    /// What the model sent there (an excerpt when `sent_bytes` is set).
    pub sent: Value,
    /// What was used instead (an excerpt when `used_bytes` is set).
    pub used: Value,
    /// Which rule changed it.
    pub rule: RepairRule,
    /// When `sent` is an excerpt: the size in bytes of the whole value's
    /// compact JSON text.
    #[serde(rename = "sentBytes", default, skip_serializing_if = "Option::is_none")]
    pub sent_bytes: Option<u64>,
    /// When `used` is an excerpt: the size in bytes of the whole value's
    /// compact JSON text.
    #[serde(rename = "usedBytes", default, skip_serializing_if = "Option::is_none")]
    pub used_bytes: Option<u64>,
}

impl Repair {
    /// The change at `path` from `sent` to `used` by `rule`, each value
    /// kept whole or as an excerpt with its size (see above).
    pub fn new(path: impl Into<String>, sent: &Value, used: &Value, rule: RepairRule) -> Self {
        let (sent, sent_bytes) = excerpt::excerpt(sent);
        let (used, used_bytes) = excerpt::excerpt(used);
        Repair {
            path: excerpt::short_path(path.into()),
            sent,
            used,
            rule,
            sent_bytes,
            used_bytes,
        }
    }
}
