//! The schema walk that finds and fixes near misses.
//!
//! The walk descends the arguments and the schema together. At each value
//! it asks whether the value fits the schema node's own keywords (its
//! `type`, `enum`, `const`); a value that fits is never changed there, only
//! its parts are walked. A value that does not fit is offered to the rules
//! ([`rules`]), and a rule's result is kept only when it *fits* the node
//! structurally ([`fit`]: kinds, value lists, required keys, the same at
//! every depth; bounds, lengths, patterns and formats are left to the
//! parse that follows). So every repair is one that can make the value
//! parse, and a value that already fits is left as it is.
//!
//! Alternatives (`anyOf`, `oneOf`): a value one of them already fits needs
//! no repair; an object is tried against the alternatives whose `const`
//! tags it carries exactly (else against all); the repair is kept when
//! exactly one repaired value fits its alternative, and the node is left
//! as it is when none or several different ones do.
//!
//! `$ref` to `#...` (a JSON Pointer into the root schema, such as
//! `#/$defs/Node`) is followed; keywords beside it are not read. Any other
//! reference, and `true` or `{}`, admits anything: nothing is repaired
//! under it.
//!
//! Bounds: values nested deeper than [`MAX_JSON_DEPTH`], references and
//! alternatives nested more than [`MAX_LEVELS`] deep, or a walk of more
//! than [`MAX_STEPS`] nodes (alternatives tried inside alternatives) give
//! up and repair nothing.

mod fit;
mod rules;
mod schema;
#[cfg(test)]
mod tests;

use super::{Repair, RepairPolicy, RepairRule};
use crate::params::{MAX_JSON_DEPTH, ParamPath};
use schema::{Kinds, branches, fits_here, item_schema, member_schema, own_kinds, tags};
use serde_json::{Map, Value, json};

/// How many schema nodes (counting references and alternatives) the walk
/// may be inside at once.
const MAX_LEVELS: usize = 4 * MAX_JSON_DEPTH;

/// How many nodes one repair may visit, counting every alternative tried.
const MAX_STEPS: usize = 1 << 20;

/// How many `$ref`s may lead from one to the next before one is a schema.
const MAX_REF_HOPS: usize = 32;

/// Repairs `arguments` against `schema` (a tool's parameters schema) with
/// the rules `policy` allows. `None` when no rule changed anything; else
/// the repaired arguments and every change, in document order (a change
/// of a whole value before the changes inside it; each change's `used` is
/// what its path holds in the repaired arguments, or an excerpt of it:
/// see [`Repair`]). The result is not
/// checked here: the caller parses it as it parses the model's.
///
/// Text that is exactly a JSON number or boolean is read as one: no
/// surrounding spaces, and for an integer only an integral number (`"2"`,
/// `"2.0"`, kept as written), and only where the schema's value list (if
/// any) has it. Allowed values are matched with case ignored and
/// surrounding whitespace trimmed. See the module's comment for how the
/// schema is walked.
///
/// ```
/// use serde_json::json;
/// use tool_core::{repair::RepairPolicy, repair::RepairRule, repair::repair_arguments};
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "limit": {"type": "integer"},
///         "tags": {"type": "array", "items": {"type": "string"}},
///         "mode": {"type": "string", "enum": ["fast", "thorough"]},
///     },
/// });
/// let sent = json!({"limit": "2", "tags": "rust", "mode": " Fast"});
/// let (fixed, repairs) = repair_arguments(&schema, &sent, &RepairPolicy::all()).unwrap();
/// assert_eq!(fixed, json!({"limit": 2, "tags": ["rust"], "mode": "fast"}));
/// let rules: Vec<RepairRule> = repairs.iter().map(|repair| repair.rule).collect();
/// assert_eq!(rules, [RepairRule::StringToScalar, RepairRule::WrapInArray, RepairRule::EnumCase]);
/// assert_eq!(repairs[0].path, "limit");
///
/// // Nothing to repair: `None`.
/// assert!(repair_arguments(&schema, &json!({"limit": 2}), &RepairPolicy::all()).is_none());
/// ```
pub fn repair_arguments(
    schema: &Value,
    arguments: &Value,
    policy: &RepairPolicy,
) -> Option<(Value, Vec<Repair>)> {
    let mut walker = Walker {
        root: schema,
        policy: *policy,
        repairs: Vec::new(),
        steps: 0,
        levels: 0,
    };
    if let Some(empty) = walker.empty_arguments(arguments) {
        return Some(empty);
    }
    let repaired = walker.node(schema, arguments, &ParamPath::root()).ok()??;
    (repaired != *arguments && !walker.repairs.is_empty()).then_some((repaired, walker.repairs))
}

/// The walk gave up (a bound was reached): nothing is repaired.
struct Stop;

/// A walk's result, or [`Stop`].
type Step<T> = Result<T, Stop>;

/// A schema node, `$ref`s followed.
enum Node<'s> {
    /// `true`, `{}`-like or not understood: anything fits, nothing is repaired.
    Any,
    /// `false`: nothing fits, nothing is repaired.
    Never,
    /// A schema object.
    Object(&'s Map<String, Value>),
}

/// One repair's state: the root schema (for `$ref`), the rules, the
/// repairs made so far, and the bounds' counters.
struct Walker<'s> {
    root: &'s Value,
    policy: RepairPolicy,
    repairs: Vec<Repair>,
    steps: usize,
    levels: usize,
}

impl<'s> Walker<'s> {
    /// `{}` for arguments that are `null` or blank text, where the root
    /// schema admits an object.
    fn empty_arguments(&self, arguments: &Value) -> Option<(Value, Vec<Repair>)> {
        let empty = match arguments {
            Value::Null => true,
            Value::String(text) => text.trim().is_empty(),
            _ => false,
        };
        let admits_object = match self.resolve(self.root) {
            Node::Any => true,
            Node::Never => false,
            Node::Object(node) => own_kinds(node).is_none_or(|kinds| kinds.has(Kinds::OBJECT)),
        };
        if !(empty && admits_object && self.policy.allows(RepairRule::EmptyArguments)) {
            return None;
        }
        let used = json!({});
        let repair = Repair::new("", arguments, &used, RepairRule::EmptyArguments);
        Some((used, vec![repair]))
    }

    /// `schema` with `$ref`s followed.
    fn resolve(&self, mut schema: &'s Value) -> Node<'s> {
        for _ in 0..MAX_REF_HOPS {
            let node = match schema {
                Value::Bool(false) => return Node::Never,
                Value::Object(node) => node,
                _ => return Node::Any,
            };
            let Some(reference) = node.get("$ref") else {
                return Node::Object(node);
            };
            let target = reference
                .as_str()
                .and_then(|reference| reference.strip_prefix('#'))
                .and_then(|pointer| self.root.pointer(pointer));
            match target {
                Some(target) => schema = target,
                None => return Node::Any,
            }
        }
        Node::Any
    }

    /// Counts one more node entered at `depth`; [`Stop`] past a bound.
    fn enter(&mut self, depth: usize) -> Step<()> {
        self.steps += 1;
        self.levels += 1;
        if depth > MAX_JSON_DEPTH || self.levels > MAX_LEVELS || self.steps > MAX_STEPS {
            return Err(Stop);
        }
        Ok(())
    }

    /// `value` repaired against `schema`; `None` when unchanged.
    fn node(
        &mut self,
        schema: &'s Value,
        value: &Value,
        path: &ParamPath<'_>,
    ) -> Step<Option<Value>> {
        self.enter(path.depth())?;
        let repaired = match self.resolve(schema) {
            Node::Any | Node::Never => Ok(None),
            Node::Object(node) if fits_here(node, value) => self.inside(node, value, path),
            Node::Object(node) => self.fix(node, value, path),
        };
        self.levels -= 1;
        repaired
    }

    /// The parts of `value` (which fits `node`'s own keywords) repaired:
    /// through the alternatives, then the node's own members or items.
    fn inside(
        &mut self,
        node: &'s Map<String, Value>,
        value: &Value,
        path: &ParamPath<'_>,
    ) -> Step<Option<Value>> {
        let chosen = match branches(node) {
            Some(branches) => self.choose(branches, value, path)?,
            None => None,
        };
        let current = chosen.as_ref().unwrap_or(value);
        let parts = match current {
            Value::Object(members) => self.members(node, members, path)?,
            Value::Array(items) => self.items(node, items, path)?,
            _ => None,
        };
        Ok(parts.or(chosen))
    }

    /// An object's members repaired, each against its property's schema
    /// (or `additionalProperties`); members without one are kept as sent.
    fn members(
        &mut self,
        node: &'s Map<String, Value>,
        members: &Map<String, Value>,
        path: &ParamPath<'_>,
    ) -> Step<Option<Value>> {
        let mut changed: Option<Map<String, Value>> = None;
        for (key, member) in members {
            let Some(schema) = member_schema(node, key) else {
                continue;
            };
            if let Some(repaired) = self.node(schema, member, &path.field(key))? {
                changed
                    .get_or_insert_with(|| members.clone())
                    .insert(key.clone(), repaired);
            }
        }
        Ok(changed.map(Value::Object))
    }

    /// An array's items repaired, each against its position's schema.
    fn items(
        &mut self,
        node: &'s Map<String, Value>,
        items: &[Value],
        path: &ParamPath<'_>,
    ) -> Step<Option<Value>> {
        let mut changed: Option<Vec<Value>> = None;
        for (index, item) in items.iter().enumerate() {
            let Some(schema) = item_schema(node, index) else {
                continue;
            };
            if let Some(repaired) = self.node(schema, item, &path.index(index))? {
                changed.get_or_insert_with(|| items.to_vec())[index] = repaired;
            }
        }
        Ok(changed.map(Value::Array))
    }

    /// `value` repaired through one of `branches`: `None` when one already
    /// fits, or when not exactly one repaired value fits its branch.
    fn choose(
        &mut self,
        branches: &'s [Value],
        value: &Value,
        path: &ParamPath<'_>,
    ) -> Step<Option<Value>> {
        for branch in branches {
            if self.fits(branch, value, path.depth())? {
                return Ok(None);
            }
        }
        let mut found: Option<(Value, Vec<Repair>)> = None;
        for branch in self.candidates(branches, value) {
            let (repaired, made) = self.trial(|walker| walker.node(branch, value, path))?;
            let Some(repaired) = repaired else {
                continue;
            };
            if !self.fits(branch, &repaired, path.depth())? {
                continue;
            }
            match &found {
                None => found = Some((repaired, made)),
                Some((first, _)) if *first == repaired => {}
                Some(_) => return Ok(None),
            }
        }
        Ok(found.map(|(repaired, made)| {
            self.repairs.extend(made);
            repaired
        }))
    }

    /// The branches worth trying for `value`: for an object, those whose
    /// `const` tags it carries exactly, when there are any; else all.
    fn candidates(&self, branches: &'s [Value], value: &Value) -> Vec<&'s Value> {
        let tagged: Vec<&'s Value> = match value {
            Value::Object(members) => branches
                .iter()
                .filter(|branch| match self.resolve(branch) {
                    Node::Object(node) => {
                        let tags = tags(node);
                        !tags.is_empty()
                            && tags.iter().all(|(key, tag)| {
                                members.get(*key).and_then(Value::as_str) == Some(tag)
                            })
                    }
                    _ => false,
                })
                .collect(),
            _ => Vec::new(),
        };
        if tagged.is_empty() {
            branches.iter().collect()
        } else {
            tagged
        }
    }

    /// Runs `attempt` with a fresh list of repairs, and returns its result
    /// and the repairs it made; the walker's own list is as before.
    fn trial<T>(&mut self, attempt: impl FnOnce(&mut Self) -> Step<T>) -> Step<(T, Vec<Repair>)> {
        let before = std::mem::take(&mut self.repairs);
        let result = attempt(self);
        let made = std::mem::replace(&mut self.repairs, before);
        Ok((result?, made))
    }

    /// Records a change of a whole value at `path`, before the changes
    /// `made` inside it.
    fn record(
        &mut self,
        path: &ParamPath<'_>,
        sent: &Value,
        used: &Value,
        rule: RepairRule,
        made: Vec<Repair>,
    ) {
        self.repairs
            .push(Repair::new(path_text(path), sent, used, rule));
        self.repairs.extend(made);
    }
}

/// `path` as parse errors write it, with the root as the empty string.
fn path_text(path: &ParamPath<'_>) -> String {
    if path.depth() == 0 {
        String::new()
    } else {
        path.to_string()
    }
}
