//! Reading a [`ToolCall`] off the wire, by hand rather than derived: every
//! call is read this way, and the derived reader copied the `"type"` tag
//! into a `String` only to compare it. Here the tag is compared where it
//! lies (borrowed when the input allows), and the rules are the same:
//! `"type"` may be left out (or null) but must be `"toolCall"` when given,
//! missing `arguments` mean `{}`, other keys are ignored, and a repeated
//! key is an error.

use super::ToolCall;
use crate::params::describe::StrExcerpt;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

impl<'de> Deserialize<'de> for ToolCall {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("ToolCall", FIELDS, CallVisitor)
    }
}

const FIELDS: &[&str] = &["type", "id", "name", "arguments"];

struct CallVisitor;

impl<'de> Visitor<'de> for CallVisitor {
    type Value = ToolCall;

    fn expecting(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str("a tool call object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ToolCall, A::Error> {
        let mut seen_type = false;
        let mut id: Option<String> = None;
        let mut name: Option<String> = None;
        let mut arguments: Option<Value> = None;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Type => {
                    if std::mem::replace(&mut seen_type, true) {
                        return Err(de::Error::duplicate_field("type"));
                    }
                    if let Some(other) = map.next_value::<TypeTag>()?.0 {
                        return Err(de::Error::custom(format_args!(
                            "expected \"type\": \"toolCall\", got {}",
                            StrExcerpt(&other)
                        )));
                    }
                }
                Key::Id => once(&mut id, "id", || map.next_value())?,
                Key::Name => once(&mut name, "name", || map.next_value())?,
                Key::Arguments => once(&mut arguments, "arguments", || map.next_value())?,
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(ToolCall {
            id: id.ok_or_else(|| de::Error::missing_field("id"))?,
            name: name.ok_or_else(|| de::Error::missing_field("name"))?,
            arguments: arguments.unwrap_or_else(|| Value::Object(Map::new())),
            origin: None,
        })
    }
}

/// Fills `slot` from `read`, refusing a second value for the same key.
fn once<T, E: de::Error>(
    slot: &mut Option<T>,
    field: &'static str,
    read: impl FnOnce() -> Result<T, E>,
) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(field));
    }
    *slot = Some(read()?);
    Ok(())
}

/// A key of the call object.
enum Key {
    Type,
    Id,
    Name,
    Arguments,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        Ok(match key {
            "type" => Key::Type,
            "id" => Key::Id,
            "name" => Key::Name,
            "arguments" => Key::Arguments,
            _ => Key::Other,
        })
    }
}

/// The `"type"` value: `None` when it is `"toolCall"` (or null), else the
/// other string, to report.
struct TypeTag(Option<String>);

impl<'de> Deserialize<'de> for TypeTag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_option(TypeTagVisitor)
    }
}

struct TypeTagVisitor;

impl<'de> Visitor<'de> for TypeTagVisitor {
    type Value = TypeTag;

    fn expecting(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str("a string")
    }

    fn visit_none<E: de::Error>(self) -> Result<TypeTag, E> {
        Ok(TypeTag(None))
    }

    fn visit_unit<E: de::Error>(self) -> Result<TypeTag, E> {
        Ok(TypeTag(None))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<TypeTag, D::Error> {
        deserializer.deserialize_str(TypeTagVisitor)
    }

    fn visit_str<E: de::Error>(self, tag: &str) -> Result<TypeTag, E> {
        Ok(TypeTag((tag != "toolCall").then(|| tag.to_owned())))
    }
}
