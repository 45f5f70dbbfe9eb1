//! The rules, each tried on a value that does not fit its schema node's
//! own keywords, in this order: an allowed value in another case
//! ([`RepairRule::EnumCase`]), a number or boolean as text
//! ([`RepairRule::StringToScalar`]), an object or array as JSON text
//! ([`RepairRule::JsonText`]), one value for a list
//! ([`RepairRule::WrapInArray`]). A rule's result is kept only when it
//! fits the node. Text that opens like JSON (`{`, `[`) is read as JSON
//! text or left as it is, never wrapped: `"[1,2]"` sent for a list of
//! strings is not `["[1,2]"]`, which would parse to what was not meant.

use super::schema::{Kinds, allows_one_item, fits_here, item_schema, listed_strings, own_kinds};
use super::{Step, Walker};
use crate::model::RepairRule;
use crate::params::ParamPath;
use serde_json::{Map, Value};

impl<'s> Walker<'s> {
    /// `value` (which does not fit `node`'s own keywords) repaired by the
    /// first rule that makes it fit; `None` when none does.
    pub(super) fn fix(
        &mut self,
        node: &'s Map<String, Value>,
        value: &Value,
        path: &ParamPath<'_>,
    ) -> Step<Option<Value>> {
        let Some(kinds) = own_kinds(node) else {
            return Ok(None);
        };
        if let Value::String(text) = value {
            let scalar = self
                .enum_case(node, text)
                .or_else(|| self.string_to_scalar(node, kinds, text));
            if let Some((used, rule)) = scalar {
                self.record(path, value, &used, rule, Vec::new());
                return Ok(Some(used));
            }
            // Text that looks like an object or an array is read as the
            // one wanted or not at all: `"[1,2]"` is never `["[1,2]"]`.
            if looks_structured(text) {
                return match decode_structure(kinds, text) {
                    Some(decoded) => self.json_text(node, decoded, value, path),
                    None => Ok(None),
                };
            }
        }
        self.wrap_in_array(node, kinds, value, path)
    }

    /// The one allowed string (of `enum` or `const`) equal to `text` when
    /// case and surrounding whitespace are ignored.
    fn enum_case(&self, node: &Map<String, Value>, text: &str) -> Option<(Value, RepairRule)> {
        if !self.policy.allows(RepairRule::EnumCase) {
            return None;
        }
        let allowed = listed_strings(node);
        if allowed.contains(&text) {
            return None;
        }
        let mut matches = allowed.into_iter().filter(|name| same_loosely(name, text));
        let first = matches.next()?;
        if matches.any(|other| other != first) {
            return None;
        }
        let used = Value::from(first);
        fits_here(node, &used).then_some((used, RepairRule::EnumCase))
    }

    /// `text` read as the JSON number or boolean it exactly is, where the
    /// node wants one and not a string.
    fn string_to_scalar(
        &self,
        node: &Map<String, Value>,
        kinds: Kinds,
        text: &str,
    ) -> Option<(Value, RepairRule)> {
        if !self.policy.allows(RepairRule::StringToScalar) || kinds.has(Kinds::STRING) {
            return None;
        }
        let used = match text {
            "true" | "false" if kinds.has(Kinds::BOOLEAN) => Value::Bool(text == "true"),
            _ if kinds.has(Kinds::NUMBER) || kinds.has(Kinds::INTEGER) => number_text(text)?,
            _ => return None,
        };
        fits_here(node, &used).then_some((used, RepairRule::StringToScalar))
    }

    /// `decoded`, the JSON text `sent` of an object or array the node
    /// wants, repaired inside; kept when the result fits the node.
    fn json_text(
        &mut self,
        node: &'s Map<String, Value>,
        decoded: Value,
        sent: &Value,
        path: &ParamPath<'_>,
    ) -> Step<Option<Value>> {
        if !self.policy.allows(RepairRule::JsonText) || !fits_here(node, &decoded) {
            return Ok(None);
        }
        let (inside, made) = self.trial(|walker| walker.inside(node, &decoded, path))?;
        let used = inside.unwrap_or(decoded);
        if !self.fits_node(node, &used, path.depth())? {
            return Ok(None);
        }
        self.record(path, sent, &used, RepairRule::JsonText, made);
        Ok(Some(used))
    }

    /// `[value]`, its item repaired, where the node wants an array of
    /// such values (not `null`, and not where one item is too few).
    fn wrap_in_array(
        &mut self,
        node: &'s Map<String, Value>,
        kinds: Kinds,
        value: &Value,
        path: &ParamPath<'_>,
    ) -> Step<Option<Value>> {
        if !self.policy.allows(RepairRule::WrapInArray)
            || !kinds.has(Kinds::ARRAY)
            || kinds.admit(value)
            || value.is_null()
            || !allows_one_item(node)
        {
            return Ok(None);
        }
        let (item, made) = match item_schema(node, 0) {
            Some(schema) => self.trial(|walker| walker.node(schema, value, &path.index(0)))?,
            None => (None, Vec::new()),
        };
        let used = Value::Array(vec![item.unwrap_or_else(|| value.clone())]);
        if !self.fits_node(node, &used, path.depth())? {
            return Ok(None);
        }
        self.record(path, value, &used, RepairRule::WrapInArray, made);
        Ok(Some(used))
    }
}

/// The JSON number `text` is exactly (no spaces around it); `None` for
/// anything else, including numbers JSON cannot hold (`1e999`).
fn number_text(text: &str) -> Option<Value> {
    let first = text.bytes().next()?;
    let last = text.bytes().last()?;
    if !(first == b'-' || first.is_ascii_digit()) || !last.is_ascii_digit() {
        return None;
    }
    serde_json::from_str::<Value>(text)
        .ok()
        .filter(Value::is_number)
}

/// Whether `text` opens like an object or an array (`{`, `[`, after
/// whitespace).
fn looks_structured(text: &str) -> bool {
    matches!(text.trim_start().bytes().next(), Some(b'{' | b'['))
}

/// `text` decoded, where it is the JSON text of an object or an array
/// and the node wants that kind.
fn decode_structure(kinds: Kinds, text: &str) -> Option<Value> {
    let wanted = match text.trim_start().bytes().next()? {
        b'{' => Kinds::OBJECT,
        b'[' => Kinds::ARRAY,
        _ => return None,
    };
    if !kinds.has(wanted) {
        return None;
    }
    serde_json::from_str::<Value>(text)
        .ok()
        .filter(|decoded| decoded.is_object() || decoded.is_array())
}

/// Whether `a` and `b` are equal when case and surrounding whitespace are
/// ignored.
fn same_loosely(a: &str, b: &str) -> bool {
    lowered(a).eq(lowered(b))
}

fn lowered(text: &str) -> impl Iterator<Item = char> + '_ {
    text.trim().chars().flat_map(char::to_lowercase)
}
