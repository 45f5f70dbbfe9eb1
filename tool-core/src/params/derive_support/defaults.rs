//! `#[param(default = "celsius")]`: a string literal default, as the model
//! would write the value. A type that converts from `&str` (a `String`, a
//! `Cow`, a type of your own) takes it as it did; any other (an enum whose
//! variant the model writes as `"celsius"`, a number type, a path) reads
//! it as that JSON string, as its parse reads the model's. The choice is
//! made by method resolution (autoref: the `From<&str>` impl is on the
//! wrapper itself, the JSON one on a reference to it), so a type with both
//! keeps its old meaning.

use crate::params::{ParamPath, ParamValue, ParseContext};
use std::marker::PhantomData;

/// The field type whose string literal default is read.
#[derive(Debug)]
pub struct DefaultLiteral<T>(PhantomData<T>);

impl<T> DefaultLiteral<T> {
    /// The reader for `T`.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        DefaultLiteral(PhantomData)
    }
}

/// A type that converts from `&str`: the literal as is.
pub trait DefaultFromStr<T> {
    /// The default of field `field`, from `text`.
    fn literal(&self, field: &str, text: &'static str) -> T;
}

impl<T: From<&'static str>> DefaultFromStr<T> for DefaultLiteral<T> {
    fn literal(&self, _field: &str, text: &'static str) -> T {
        T::from(text)
    }
}

/// Any other tool parameter type: the literal as the JSON string the model
/// would send.
pub trait DefaultFromJson<T> {
    /// The default of field `field`, from `text`.
    fn literal(&self, field: &str, text: &'static str) -> T;
}

impl<T: ParamValue> DefaultFromJson<T> for &DefaultLiteral<T> {
    #[track_caller]
    fn literal(&self, field: &str, text: &'static str) -> T {
        let value = serde_json::Value::String(text.to_owned());
        read_default(field, &value)
    }
}

/// `#[param(default = {"days": 3})]`: the field's default written as the
/// JSON the model would send, read by the type's own parse. The derive
/// checked its shape; a value that does not fit the type panics when the
/// schema is built, naming the field, as a bad literal default does. The
/// text is read once per field (`parsed`, a static of the generated code):
/// a call that leaves the field out pays only the type's parse.
#[track_caller]
pub fn default_from_json<T: ParamValue>(
    field: &str,
    text: &str,
    parsed: &std::sync::OnceLock<serde_json::Value>,
) -> T {
    let value = parsed.get_or_init(|| match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => panic!(
            "#[derive(ToolParams)]: the default {text} of field `{field}` is not JSON ({error})"
        ),
    });
    read_default(field, value)
}

/// `value`, the default of field `field`, read by the field type's parse
/// as the model's value would be; a panic naming the field, what is wrong
/// and the forms that work when it is no value of the type (the derive's
/// schema is built at registration, so this is the author's, at start).
#[track_caller]
fn read_default<T: ParamValue>(field: &str, value: &serde_json::Value) -> T {
    let mut errors = ParseContext::new();
    let root = ParamPath::root();
    if let Some(parsed) = T::parse_value(value, &root.field(field), &mut errors)
        && errors.is_empty()
    {
        return parsed;
    }
    panic!(
        "#[derive(ToolParams)]: the default {value} of field `{field}` is not a value of \
         its type ({}): write it as the model would send it (`default = \"celsius\"` for a \
         variant the JSON shows as \"celsius\", `default = {{\"days\": 3}}` for a struct), as a \
         Rust expression of the field's type (`default = Unit::Celsius`, `default = 3`), or as \
         `default` alone for the type's `Default`",
        errors.into_error()
    );
}
