//! `one_of = [..]`: the only values a field may take (schema `enum`).

use super::bounds::{Bound, compare};
use crate::params::describe::Excerpt;
use crate::params::{ParamPath, ParseContext};
use serde_json::Value;
use std::cmp::Ordering;

/// One value of a `one_of` list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    /// A number.
    Number(Bound),
    /// A string.
    Str(&'static str),
}

impl Literal {
    /// The value as JSON.
    pub fn to_json(self) -> Value {
        match self {
            Literal::Number(number) => number.to_json(),
            Literal::Str(text) => Value::from(text),
        }
    }

    /// Equality as JSON Schema's `enum` judges it: numbers by value (`2.0`
    /// is `2`), strings exactly.
    fn matches(self, value: &Value) -> bool {
        match (self, value) {
            (Literal::Number(number), Value::Number(sent)) => {
                compare(sent, number) == Some(Ordering::Equal)
            }
            (Literal::Str(text), Value::String(sent)) => text == sent,
            _ => false,
        }
    }
}

/// Reports `value` if it is none of `allowed`; true if it did.
pub(super) fn check(
    allowed: &[Literal],
    value: &Value,
    path: &ParamPath<'_>,
    errors: &mut ParseContext,
) -> bool {
    if allowed.iter().any(|literal| literal.matches(value)) {
        return false;
    }
    let listed = allowed
        .iter()
        .map(|literal| literal.to_json().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let names: Vec<&str> = allowed
        .iter()
        .filter_map(|literal| match literal {
            Literal::Str(text) => Some(*text),
            Literal::Number(_) => None,
        })
        .collect();
    let hint = match value {
        Value::String(sent) => crate::params::suggest::did_you_mean(sent, &names),
        _ => String::new(),
    };
    errors.push(
        path,
        format_args!("expected one of {listed}, got {}{hint}", Excerpt(value)),
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_match_by_value_and_strings_exactly() {
        let stars = [1, 3, 5].map(|n| Literal::Number(Bound::Int(n)));
        let mut errors = ParseContext::new();
        let path = ParamPath::root();
        assert!(!check(&stars, &json!(3), &path, &mut errors));
        assert!(!check(&stars, &json!(3.0), &path, &mut errors));
        assert!(check(&stars, &json!(2), &path, &mut errors));
        let levels = [Literal::Str("low"), Literal::Str("high")];
        assert!(check(&levels, &json!("hgih"), &path, &mut errors));
        assert_eq!(
            errors.into_error().to_string(),
            "arguments: expected one of 1, 3, 5, got 2\n\
             arguments: expected one of \"low\", \"high\", got \"hgih\": did you mean \"high\"?"
        );
    }
}
