//! [`MapKey`]: how the key of a `BTreeMap<K, V>` or `HashMap<K, V>` field is
//! read from a JSON object's key, written back, and described to the model
//! (JSON Schema's `propertyNames`).
//!
//! JSON object keys are strings, so every key type is a set of strings.
//! Each key type here accepts one string per value (its canonical form:
//! `"7"`, never `"07"` or `"+7"`), which both keeps the schema exact and
//! keeps two keys from silently becoming one entry. Where a type's strings
//! are not one per value (IPv6 addresses: `"::1"` and `"0::1"`), the map
//! refuses a key that repeats an earlier one's value, naming it.

mod addresses;
mod integers;

use crate::params::describe::StrExcerpt;
use crate::params::{ParamPath, ParseContext};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

/// A type that can be the key of a map parameter (`BTreeMap<K, V>`,
/// `HashMap<K, V>`): how it is read from a JSON object's key, how it is
/// written back, and the schema every key must match (JSON Schema's
/// `propertyNames`).
///
/// Implemented for strings (any key), every integer and `NonZero*` type
/// (canonical decimal only), `bool` (`"true"`, `"false"`), `char`, the IP
/// address types, and `uuid::Uuid` (feature `uuid`). As with
/// [`ParamValue`](super::ParamValue), parse and schema must agree:
/// `parse_key` accepts exactly the strings `key_schema` accepts, and
/// `to_key` writes one of them. Accept only one string per value if you can:
/// two keys of one value in the same object are refused.
///
/// ```
/// use std::collections::BTreeMap;
/// use serde_json::{Value, json};
/// use tool_core::params::{MapKey, ParamPath, ParseContext};
/// use tool_core::ToolParams;
///
/// /// A square of a chess board, such as `e4`.
/// #[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
/// struct Square { file: u8, rank: u8 }
///
/// impl MapKey for Square {
///     fn key_schema() -> Option<Value> {
///         Some(json!({"pattern": "^[a-h][1-8]$"}))
///     }
///     fn parse_key(key: &str, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
///         match key.as_bytes() {
///             [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Some(Square { file: *file, rank: *rank }),
///             _ => {
///                 errors.push(path, format_args!("expected a square such as \"e4\", got {key:?}"));
///                 None
///             }
///         }
///     }
///     fn to_key(&self) -> String {
///         format!("{}{}", char::from(self.file), char::from(self.rank))
///     }
/// }
///
/// #[derive(ToolParams, Debug)]
/// struct Position {
///     pieces: BTreeMap<Square, String>,
/// }
///
/// let position = Position::parse(&json!({"pieces": {"e1": "king", "d8": "queen"}})).unwrap();
/// assert_eq!(position.pieces[&Square { file: b'e', rank: b'1' }], "king");
/// assert_eq!(
///     Position::json_schema()["properties"]["pieces"],
///     json!({"type": "object", "additionalProperties": {"type": "string"}, "propertyNames": {"pattern": "^[a-h][1-8]$"}})
/// );
/// let error = Position::parse(&json!({"pieces": {"z9": "king"}})).unwrap_err();
/// assert_eq!(error.to_string(), "pieces.z9: expected a square such as \"e4\", got \"z9\"");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the key of a map parameter",
    label = "this type cannot be a map key",
    note = "a map parameter's key must implement `tool_core::params::MapKey`: a string, an integer or `NonZero*` integer, bool, char, an IP address, or `uuid::Uuid` (feature `uuid`)",
    note = "for a type of your own, implement `tool_core::params::MapKey` for it"
)]
pub trait MapKey: Sized {
    /// The schema of every key of the object (its `propertyNames`), or
    /// `None` when any string is a key, which the map's schema then leaves
    /// unsaid.
    fn key_schema() -> Option<Value>;

    /// Reads the key `key`; `path` is the path of its entry (`counts.7`).
    /// On failure, pushes what was expected onto `errors` and returns
    /// `None`; it never panics on any input.
    fn parse_key(key: &str, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self>;

    /// The key as written back, such that `parse_key` gives this value
    /// back.
    fn to_key(&self) -> String;
}

/// Reports `key` as not what a key type expects (`what`: `a key that is
/// "true" or "false"`). Out of line: the happy path stays small.
#[cold]
pub(crate) fn refuse_key<K>(
    what: impl std::fmt::Display,
    key: &str,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> Option<K> {
    errors.push(
        path,
        format_args!("expected {what}, got {}", StrExcerpt(key)),
    );
    None
}

/// Strings are any key; the map's schema says nothing about them.
macro_rules! string_key {
    ($($string:ty),*) => {$(
        impl MapKey for $string {
            fn key_schema() -> Option<Value> {
                None
            }

            #[inline]
            fn parse_key(key: &str, _: &ParamPath<'_>, _: &mut ParseContext) -> Option<Self> {
                Some(key.into())
            }

            fn to_key(&self) -> String {
                (**self).to_owned()
            }
        }
    )*};
}

string_key!(String, Box<str>, Arc<str>, Rc<str>);

impl MapKey for Cow<'static, str> {
    fn key_schema() -> Option<Value> {
        None
    }

    fn parse_key(key: &str, _: &ParamPath<'_>, _: &mut ParseContext) -> Option<Self> {
        Some(Cow::Owned(key.to_owned()))
    }

    fn to_key(&self) -> String {
        self.clone().into_owned()
    }
}

/// `"true"` or `"false"`, as JSON spells the values.
impl MapKey for bool {
    fn key_schema() -> Option<Value> {
        Some(json!({"enum": ["true", "false"]}))
    }

    fn parse_key(key: &str, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        match key {
            "true" => Some(true),
            "false" => Some(false),
            _ => refuse_key("a key that is \"true\" or \"false\"", key, path, errors),
        }
    }

    fn to_key(&self) -> String {
        self.to_string()
    }
}

/// Exactly one character (code point), as a `char` field is.
impl MapKey for char {
    fn key_schema() -> Option<Value> {
        Some(json!({"minLength": 1, "maxLength": 1}))
    }

    fn parse_key(key: &str, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        let mut chars = key.chars();
        match (chars.next(), chars.next()) {
            (Some(only), None) => Some(only),
            _ => refuse_key("a key of exactly 1 character", key, path, errors),
        }
    }

    fn to_key(&self) -> String {
        self.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read<K: MapKey>(key: &str) -> Result<K, String> {
        let mut errors = ParseContext::new();
        let root = ParamPath::root();
        let path = root.field("map");
        let entry = path.key(key);
        K::parse_key(key, &entry, &mut errors).ok_or_else(|| errors.into_error().to_string())
    }

    #[test]
    fn strings_bools_and_chars() {
        assert_eq!(read::<String>("any key").unwrap(), "any key");
        assert_eq!(&*read::<Arc<str>>("").unwrap(), "");
        assert_eq!(String::key_schema(), None);
        assert!(read::<bool>("true").unwrap());
        assert!(!read::<bool>("false").unwrap());
        assert_eq!(
            read::<bool>("True").unwrap_err(),
            "map.True: expected a key that is \"true\" or \"false\", got \"True\""
        );
        assert_eq!(read::<char>("é").unwrap(), 'é');
        assert_eq!(
            read::<char>("ab").unwrap_err(),
            "map.ab: expected a key of exactly 1 character, got \"ab\""
        );
        assert_eq!(
            read::<char>("").unwrap_err(),
            "map[\"\"]: expected a key of exactly 1 character, got \"\""
        );
        for key in [true, false] {
            assert_eq!(read::<bool>(&key.to_key()).unwrap(), key);
        }
        assert_eq!('😀'.to_key(), "😀");
    }
}
