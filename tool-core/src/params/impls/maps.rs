//! `BTreeMap<K, V>` and `HashMap<K, V, S>`: JSON objects, each key read by
//! its [`MapKey`] and each value by its [`ParamValue`], at the path
//! `name.key`.
//!
//! The schema is `{"type":"object","additionalProperties":V}`, plus
//! `"propertyNames"` when the key type says which strings are keys
//! (`String` keys say nothing, so a string-keyed map's schema is just
//! that). A key that repeats an earlier key's value (`"::1"` after
//! `"0::1"` for IPv6 keys) is refused at its path, naming the earlier key,
//! rather than one entry silently replacing the other.

use crate::params::describe::StrExcerpt;
use crate::params::{MapKey, ParamPath, ParamValue, ParseContext};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap, btree_map, hash_map};
use std::hash::{BuildHasher, Hash};

fn map_schema<K: MapKey, V: ParamValue>() -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("additionalProperties".into(), V::schema());
    if let Some(keys) = K::key_schema() {
        schema.insert("propertyNames".into(), keys);
    }
    Value::Object(schema)
}

/// Parses every entry of a JSON object, giving each key and value to
/// `insert`, which says whether the key was new. Every entry is read, so
/// every problem is reported; once one fails, nothing more is inserted.
/// A repeated key is then reported with [`report_repeats`], through
/// `first_index` (which records the first entry of each key and returns
/// it for a later one).
fn parse_entries<K: MapKey, V: ParamValue>(
    value: &Value,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
    mut insert: impl FnMut(K, V) -> bool,
    first_index: impl FnMut(K, usize) -> Option<usize>,
) -> bool {
    let Value::Object(entries) = value else {
        errors.expected(path, "object", value);
        return false;
    };
    let mut failed = false;
    for (key, item) in entries {
        let entry = path.key(key);
        let parsed_key = K::parse_key(key, &entry, errors);
        let parsed_item = V::parse_value(item, &entry, errors);
        match (parsed_key, parsed_item) {
            (Some(key), Some(item)) if !failed => failed = !insert(key, item),
            _ => failed = true,
        }
    }
    if failed {
        report_repeats(entries, path, errors, first_index);
    }
    !failed
}

/// Reports every key whose value an earlier key already named, by reading
/// the keys again (the parsed ones were moved into the map, or never
/// made). Only on failure; linear in the entries with `first_index`.
#[cold]
fn report_repeats<K: MapKey>(
    entries: &Map<String, Value>,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
    mut first_index: impl FnMut(K, usize) -> Option<usize>,
) {
    let keys: Vec<&String> = entries.keys().collect();
    for (index, key) in keys.iter().enumerate() {
        let Some(parsed) = K::parse_key(key, &ParamPath::root(), &mut ParseContext::new()) else {
            continue;
        };
        if let Some(first) = first_index(parsed, index) {
            errors.push(
                &path.key(key),
                format_args!(
                    "repeats the key {} (the same value written another way): the keys must be unique",
                    StrExcerpt(keys[first])
                ),
            );
        }
    }
}

fn entries_json<'a, K: MapKey + 'a, V: ParamValue + 'a>(
    entries: impl Iterator<Item = (&'a K, &'a V)>,
) -> Value {
    Value::Object(
        entries
            .map(|(key, item)| (key.to_key(), item.to_json()))
            .collect::<Map<String, Value>>(),
    )
}

impl<K: MapKey + Ord, V: ParamValue> ParamValue for BTreeMap<K, V> {
    fn schema() -> Value {
        map_schema::<K, V>()
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let mut parsed = BTreeMap::new();
        // Only a failed parse looks for repeated keys: the map of first
        // indices is made then, not on every call.
        let mut seen = None;
        parse_entries(
            value,
            path,
            errors,
            |key, item| parsed.insert(key, item).is_none(),
            |key, index| match seen.get_or_insert_with(BTreeMap::new).entry(key) {
                btree_map::Entry::Occupied(first) => Some(*first.get()),
                btree_map::Entry::Vacant(slot) => {
                    slot.insert(index);
                    None
                }
            },
        )
        .then_some(parsed)
    }

    fn to_json(&self) -> Value {
        entries_json(self.iter())
    }
}

impl<K: MapKey + Eq + Hash, V: ParamValue, S: BuildHasher + Default> ParamValue
    for HashMap<K, V, S>
{
    fn schema() -> Value {
        map_schema::<K, V>()
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let capacity = value.as_object().map_or(0, Map::len);
        let mut parsed = HashMap::with_capacity_and_hasher(capacity, S::default());
        // Only a failed parse looks for repeated keys: the map of first
        // indices (and its hasher's seed) is made then, not on every call.
        let mut seen = None;
        parse_entries(
            value,
            path,
            errors,
            |key, item| parsed.insert(key, item).is_none(),
            |key, index| match seen
                .get_or_insert_with(|| HashMap::with_hasher(S::default()))
                .entry(key)
            {
                hash_map::Entry::Occupied(first) => Some(*first.get()),
                hash_map::Entry::Vacant(slot) => {
                    slot.insert(index);
                    None
                }
            },
        )
        .then_some(parsed)
    }

    fn to_json(&self) -> Value {
        entries_json(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::net::Ipv6Addr;

    fn parse<T: ParamValue>(value: Value) -> Result<T, String> {
        let mut errors = ParseContext::new();
        let root = ParamPath::root();
        let path = root.field("hosts");
        match T::parse_value(&value, &path, &mut errors) {
            Some(parsed) if errors.is_empty() => Ok(parsed),
            _ => Err(errors.into_error().to_string()),
        }
    }

    #[test]
    fn a_repeated_address_is_refused_naming_the_first() {
        assert_eq!(
            parse::<BTreeMap<Ipv6Addr, u8>>(
                json!({"::1": 1, "2001:db8::1": 2, "0::1": 3, "0:0::1": 4})
            )
            .unwrap_err(),
            "hosts[\"0::1\"]: repeats the key \"::1\" (the same value written another way): the keys must be unique\n\
             hosts[\"0:0::1\"]: repeats the key \"::1\" (the same value written another way): the keys must be unique"
        );
        // Also when something else failed first, and in a HashMap.
        assert_eq!(
            parse::<HashMap<Ipv6Addr, u8>>(json!({"::1": 300, "0::1": 3})).unwrap_err(),
            "hosts[\"::1\"]: expected integer <= 255, got 300\n\
             hosts[\"0::1\"]: repeats the key \"::1\" (the same value written another way): the keys must be unique"
        );
        let parsed = parse::<HashMap<Ipv6Addr, u8>>(json!({"0::1": 1, "::2": 2})).unwrap();
        assert_eq!(parsed[&Ipv6Addr::LOCALHOST], 1);
    }

    #[test]
    fn bad_keys_and_bad_values_are_all_reported() {
        assert_eq!(
            parse::<BTreeMap<u8, bool>>(json!({"1": true, "x": 1, "256": false})).unwrap_err(),
            "hosts.x: expected a key that is an integer from 0 to 255, in plain decimal (no \"+\", no leading zeros), got \"x\"\n\
             hosts.x: expected boolean, got number 1\n\
             hosts.256: expected a key that is an integer from 0 to 255, in plain decimal (no \"+\", no leading zeros), got \"256\""
        );
        let parsed = parse::<BTreeMap<i8, bool>>(json!({"-1": true, "7": false})).unwrap();
        assert_eq!(parsed.to_json(), json!({"-1": true, "7": false}));
    }

    #[test]
    fn string_keys_keep_the_plain_schema() {
        assert_eq!(
            <BTreeMap<String, u8>>::schema(),
            json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 255}})
        );
        assert_eq!(
            <HashMap<bool, bool>>::schema(),
            json!({"type": "object", "additionalProperties": {"type": "boolean"}, "propertyNames": {"enum": ["true", "false"]}})
        );
    }
}
