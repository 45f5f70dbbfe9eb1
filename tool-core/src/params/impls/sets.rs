//! `HashSet<T>` and `BTreeSet<T>`: arrays without repeats
//! (`"uniqueItems": true`). A repeat is reported at its index, naming the
//! item it repeats. Items are compared as parsed, which is JSON equality
//! once parse's leniencies are taken out (`1.0` repeats `1`).

use crate::params::{ParamError, ParamPath, ParamValue};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

fn set_schema<T: ParamValue>() -> Value {
    json!({"type": "array", "items": T::schema(), "uniqueItems": true})
}

/// Reports each item that repeats an earlier one; `first_seen` records an
/// item's index and gives the index it was first seen at, if any.
fn report_repeats<'a, T>(
    items: &'a [T],
    path: &ParamPath<'_>,
    errors: &mut ParamError,
    mut first_seen: impl FnMut(&'a T, usize) -> Option<usize>,
) -> bool {
    let mut repeated = false;
    for (index, item) in items.iter().enumerate() {
        if let Some(first) = first_seen(item, index) {
            repeated = true;
            errors.push(
                &path.index(index),
                format_args!("repeats item {first}: the items must be unique"),
            );
        }
    }
    repeated
}

impl<T: ParamValue + Eq + Hash, S: BuildHasher + Default> ParamValue for HashSet<T, S> {
    fn schema() -> Value {
        set_schema::<T>()
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParamError) -> Option<Self> {
        let items = <Vec<T> as ParamValue>::parse_value(value, path, errors)?;
        let mut seen: HashMap<&T, usize, S> =
            HashMap::with_capacity_and_hasher(items.len(), S::default());
        let repeated = report_repeats(&items, path, errors, |item, index| {
            seen.try_insert_index(item, index)
        });
        drop(seen);
        (!repeated).then(|| items.into_iter().collect())
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

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParamError) -> Option<Self> {
        let items = <Vec<T> as ParamValue>::parse_value(value, path, errors)?;
        let mut seen: BTreeMap<&T, usize> = BTreeMap::new();
        let repeated = report_repeats(&items, path, errors, |item, index| {
            seen.try_insert_index(item, index)
        });
        drop(seen);
        (!repeated).then(|| items.into_iter().collect())
    }

    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
}

/// Inserting an item's first index, keeping the first on a repeat.
trait FirstIndex<'a, T> {
    /// Records `index` for `item` unless it is there: then its first index.
    fn try_insert_index(&mut self, item: &'a T, index: usize) -> Option<usize>;
}

impl<'a, T: Eq + Hash, S: BuildHasher> FirstIndex<'a, T> for HashMap<&'a T, usize, S> {
    fn try_insert_index(&mut self, item: &'a T, index: usize) -> Option<usize> {
        match self.entry(item) {
            std::collections::hash_map::Entry::Occupied(first) => Some(*first.get()),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(index);
                None
            }
        }
    }
}

impl<'a, T: Ord> FirstIndex<'a, T> for BTreeMap<&'a T, usize> {
    fn try_insert_index(&mut self, item: &'a T, index: usize) -> Option<usize> {
        match self.entry(item) {
            std::collections::btree_map::Entry::Occupied(first) => Some(*first.get()),
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(index);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeat_is_reported_at_its_index_naming_the_first() {
        let mut errors = ParamError::new();
        let parsed = <BTreeSet<u8>>::parse_value(
            &json!([1, 2, 1.0, 3, 2]),
            &ParamPath::root().field("tags"),
            &mut errors,
        );
        assert_eq!(parsed, None);
        assert_eq!(
            errors.to_string(),
            "tags[2]: repeats item 0: the items must be unique\n\
             tags[4]: repeats item 1: the items must be unique"
        );
        let set = <HashSet<String>>::parse_value(
            &json!(["a", "b"]),
            &ParamPath::root(),
            &mut ParamError::new(),
        );
        assert_eq!(set.map(|set| set.len()), Some(2));
    }
}
