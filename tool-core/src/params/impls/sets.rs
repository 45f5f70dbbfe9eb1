//! `HashSet<T>` and `BTreeSet<T>`: arrays without repeats
//! (`"uniqueItems": true`). A repeat is reported at its index, naming the
//! item it repeats. Items are compared as parsed, which is JSON equality
//! once parse's leniencies are taken out (`1.0` repeats `1`).

use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashSet};
use std::hash::{BuildHasher, Hash};

fn set_schema<T: ParamValue>() -> Value {
    json!({"type": "array", "items": T::schema(), "uniqueItems": true})
}

/// Parses the items and moves them into a set with `insert`, which says
/// whether the item was new: one insertion per item when nothing repeats.
/// A repeat is reported at its index, naming the first index of the same
/// item, which only then is looked for.
fn parse_into<T: ParamValue + PartialEq, C: Default>(
    value: &Value,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
    mut insert: impl FnMut(&mut C, T) -> bool,
) -> Option<C> {
    let items = <Vec<T> as ParamValue>::parse_value(value, path, errors)?;
    let mut set = C::default();
    let mut repeats = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        if !insert(&mut set, item) {
            repeats.push(index);
        }
    }
    if repeats.is_empty() {
        return Some(set);
    }
    report_repeats::<T>(value, &repeats, path, errors);
    None
}

/// Reports each index of `repeats` with the first index of the same item,
/// found by parsing the items again (they were moved into the set).
#[cold]
fn report_repeats<T: ParamValue + PartialEq>(
    value: &Value,
    repeats: &[usize],
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) {
    let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
    let parsed: Vec<Option<T>> = items
        .iter()
        .map(|item| T::parse_value(item, &ParamPath::root(), &mut ParseContext::new()))
        .collect();
    for &index in repeats {
        let first = parsed[..index]
            .iter()
            .position(|earlier| earlier.is_some() && *earlier == parsed[index])
            .unwrap_or(index);
        errors.push(
            &path.index(index),
            format_args!("repeats item {first}: the items must be unique"),
        );
    }
}

impl<T: ParamValue + Eq + Hash, S: BuildHasher + Default> ParamValue for HashSet<T, S> {
    fn schema() -> Value {
        set_schema::<T>()
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        parse_into(value, path, errors, |set: &mut HashSet<T, S>, item| {
            set.insert(item)
        })
    }

    /// The items sorted by their JSON text: a `HashSet` has no order of
    /// its own, and the same set must always look the same.
    fn to_json(&self) -> Value {
        let mut items: Vec<(String, Value)> = self
            .iter()
            .map(|item| {
                let json = item.to_json();
                (json.to_string(), json)
            })
            .collect();
        items.sort_by(|a, b| a.0.cmp(&b.0));
        Value::Array(items.into_iter().map(|(_, json)| json).collect())
    }
}

impl<T: ParamValue + Ord> ParamValue for BTreeSet<T> {
    fn schema() -> Value {
        set_schema::<T>()
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        parse_into(value, path, errors, |set: &mut BTreeSet<T>, item| {
            set.insert(item)
        })
    }

    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeat_is_reported_at_its_index_naming_the_first() {
        let mut errors = ParseContext::new();
        let parsed = <BTreeSet<u8>>::parse_value(
            &json!([1, 2, 1.0, 3, 2]),
            &ParamPath::root().field("tags"),
            &mut errors,
        );
        assert_eq!(parsed, None);
        assert_eq!(
            errors.into_error().to_string(),
            "tags[2]: repeats item 0: the items must be unique\n\
             tags[4]: repeats item 1: the items must be unique"
        );
        let set = <HashSet<String>>::parse_value(
            &json!(["a", "b"]),
            &ParamPath::root(),
            &mut ParseContext::new(),
        );
        assert_eq!(set.map(|set| set.len()), Some(2));
    }
}
