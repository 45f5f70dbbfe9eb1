//! Whether a value fits a schema *structurally*: the kinds, value lists,
//! alternatives and required keys at every depth, with parse's two
//! leniencies (undeclared members are allowed, `null` for a member that is
//! not required is allowed). Bounds, lengths, uniqueness, patterns and
//! formats are not checked: the parse after repair does that.

use super::schema::{branches, fits_here, item_schema, member_schema, required};
use super::{Node, Step, Walker};
use serde_json::{Map, Value};

impl<'s> Walker<'s> {
    /// Whether `value`, `depth` levels below the arguments, fits `schema`.
    pub(super) fn fits(&mut self, schema: &'s Value, value: &Value, depth: usize) -> Step<bool> {
        self.enter(depth)?;
        let fits = match self.resolve(schema) {
            Node::Any => Ok(true),
            Node::Never => Ok(false),
            Node::Object(node) => self.fits_node(node, value, depth),
        };
        self.levels -= 1;
        fits
    }

    /// Whether `value`, `depth` levels below the arguments, fits `node`.
    pub(super) fn fits_node(
        &mut self,
        node: &'s Map<String, Value>,
        value: &Value,
        depth: usize,
    ) -> Step<bool> {
        if !fits_here(node, value) {
            return Ok(false);
        }
        if let Some(branches) = branches(node) {
            let mut any = false;
            for branch in branches {
                if self.fits(branch, value, depth)? {
                    any = true;
                    break;
                }
            }
            if !any {
                return Ok(false);
            }
        }
        match value {
            Value::Object(members) => self.members_fit(node, members, depth),
            Value::Array(items) => self.items_fit(node, items, depth),
            _ => Ok(true),
        }
    }

    /// Whether the object has its required members and each member fits.
    fn members_fit(
        &mut self,
        node: &'s Map<String, Value>,
        members: &Map<String, Value>,
        depth: usize,
    ) -> Step<bool> {
        let declared = node.get("properties").and_then(Value::as_object);
        let optional = |key: &str| {
            declared.is_some_and(|properties| properties.contains_key(key))
                && !required(node).any(|name| name == key)
        };
        if required(node).any(|key| !members.contains_key(key)) {
            return Ok(false);
        }
        for (key, member) in members {
            let Some(schema) = member_schema(node, key) else {
                continue;
            };
            if member.is_null() && optional(key) {
                continue;
            }
            if !self.fits(schema, member, depth + 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether each item fits its position's schema.
    fn items_fit(
        &mut self,
        node: &'s Map<String, Value>,
        items: &[Value],
        depth: usize,
    ) -> Step<bool> {
        for (index, item) in items.iter().enumerate() {
            let Some(schema) = item_schema(node, index) else {
                continue;
            };
            if !self.fits(schema, item, depth + 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
