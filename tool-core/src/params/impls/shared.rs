//! Other owners of a string or a list: `Box<str>`, `Rc<str>`, `Arc<str>`
//! and `Cow<'static, str>` are a `String`; `Cow<'static, [T]>` is a
//! `Vec<T>`. Parsing always owns (a `Cow` is `Owned`): the arguments do
//! not outlive the call.

use super::scalars::expected;
use crate::params::{ParamPath, ParamValue, ParseContext};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

macro_rules! string_param {
    ($($string:ty),*) => {$(
        impl ParamValue for $string {
            fn schema() -> Value {
                json!({"type": "string"})
            }

            #[inline]
            fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
                match value {
                    Value::String(text) => Some(<$string>::from(text.as_str())),
                    other => expected(path, "string", other, errors),
                }
            }

            fn to_json(&self) -> Value {
                Value::String((**self).to_owned())
            }
        }
    )*};
}

string_param!(Box<str>, Rc<str>, Arc<str>);

impl ParamValue for Cow<'static, str> {
    fn schema() -> Value {
        String::schema()
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        String::parse_value(value, path, errors).map(Cow::Owned)
    }

    fn to_json(&self) -> Value {
        Value::String(self.clone().into_owned())
    }
}

impl<T: ParamValue + Clone> ParamValue for Cow<'static, [T]> {
    fn schema() -> Value {
        <Vec<T>>::schema()
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        <Vec<T>>::parse_value(value, path, errors).map(Cow::Owned)
    }

    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<T: ParamValue>(value: Value) -> Result<T, String> {
        let mut errors = ParseContext::new();
        let root = ParamPath::root();
        let path = root.field("name");
        T::parse_value(&value, &path, &mut errors).ok_or_else(|| errors.into_error().to_string())
    }

    #[test]
    fn each_is_a_string_or_a_list() {
        assert_eq!(&*parse::<Box<str>>(json!("a")).unwrap(), "a");
        assert_eq!(&*parse::<Rc<str>>(json!("b")).unwrap(), "b");
        assert_eq!(&*parse::<Arc<str>>(json!("c")).unwrap(), "c");
        let cow = parse::<Cow<'static, str>>(json!("d")).unwrap();
        assert!(matches!(cow, Cow::Owned(ref text) if text == "d"));
        assert_eq!(cow.to_json(), json!("d"));
        assert_eq!(
            parse::<Arc<str>>(json!(1)).unwrap_err(),
            "name: expected string, got number 1"
        );
        let list = parse::<Cow<'static, [u8]>>(json!([1, 2])).unwrap();
        assert_eq!(&*list, &[1, 2]);
        assert_eq!(list.to_json(), json!([1, 2]));
        assert_eq!(
            parse::<Cow<'static, [u8]>>(json!([1, 256])).unwrap_err(),
            "name[1]: expected integer <= 255, got 256"
        );
        assert_eq!(<Cow<'static, [u8]>>::schema(), <Vec<u8>>::schema());
        assert_eq!(<Rc<str>>::schema(), String::schema());
    }
}
