//! The values a field's schema shows beside its constraints, its `default`,
//! its `examples` and its `enum`, checked against those constraints when
//! the schema is built.
//!
//! The derive checks literals at compile time. What it cannot evaluate is
//! checked here: an expression (`default = limit()`, plain `default`, which
//! is `Default::default()`, `example = vec![..]`) and a `format` (its
//! checks live in this crate). A value that breaks the field's constraints
//! is a mistake in the program, not in a call: a default parse would hand
//! the tool while the schema forbids it, or a value the model is offered
//! and then refused. So building the schema panics, naming the field and
//! the broken constraint; a registry builds every schema once, at
//! registration, so the mistake shows the first time the tool is
//! registered, in any test that does so.

use super::{Constraints, ItemConstraints};
use crate::params::{ParamPath, ParseContext};
use serde_json::Value;

/// Panics if `value`, shown as the `what` (`"default"`, `"example"`) of
/// field `field`, breaks the field's constraints or its items'.
#[track_caller]
pub fn assert_shown(
    field: &str,
    what: &str,
    value: &Value,
    constraints: Option<&Constraints>,
    items: Option<&ItemConstraints>,
) {
    let mut errors = ParseContext::new();
    let root = ParamPath::root();
    let path = root.field(field);
    if let Some(constraints) = constraints {
        constraints.check(value, &path, &mut errors);
    }
    if let Some(items) = items {
        items.check(value, &path, &mut errors);
    }
    if errors.is_empty() {
        return;
    }
    let consequence = if what == "default" {
        "a call that leaves the field out would get a value the schema forbids"
    } else {
        "the schema would show the model a value parse refuses"
    };
    panic!(
        "#[derive(ToolParams)]: the {what} {value} of field `{field}` breaks the field's own attributes ({}): {consequence}; change the {what} or the attribute",
        errors.into_error()
    );
}

/// Panics if a value of the `one_of` list of field `field` breaks its other
/// constraints (a `format`, which the derive cannot check).
#[track_caller]
pub fn assert_listed(field: &str, constraints: &Constraints) {
    let others = Constraints {
        one_of: &[],
        ..*constraints
    };
    let mut errors = ParseContext::new();
    let root = ParamPath::root();
    let path = root.field(field);
    for literal in constraints.one_of {
        others.check(&literal.to_json(), &path, &mut errors);
    }
    if !errors.is_empty() {
        panic!(
            "#[derive(ToolParams)]: the `one_of` list of field `{field}` holds a value the field's own attributes refuse ({}): the schema would offer the model a value parse refuses; remove it",
            errors.into_error()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Format;
    use crate::params::constraints::{Bound, Literal};
    use serde_json::json;

    const AT_LEAST_ONE: Constraints = Constraints {
        min: Some(Bound::Int(1)),
        integer: true,
        ..Constraints::NONE
    };

    fn panic_message(run: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let payload = std::panic::catch_unwind(run).expect_err("should panic");
        payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default()
    }

    #[test]
    fn a_default_within_the_constraints_passes() {
        assert_shown("limit", "default", &json!(1), Some(&AT_LEAST_ONE), None);
        // An absent option is `null`, which constraints pass over.
        assert_shown("limit", "default", &Value::Null, Some(&AT_LEAST_ONE), None);
    }

    #[test]
    fn a_default_outside_them_panics_naming_field_and_constraint() {
        let message = panic_message(|| {
            assert_shown("limit", "default", &json!(0), Some(&AT_LEAST_ONE), None);
        });
        assert_eq!(
            message,
            "#[derive(ToolParams)]: the default 0 of field `limit` breaks the field's own attributes (limit: expected integer >= 1, got 0): a call that leaves the field out would get a value the schema forbids; change the default or the attribute"
        );
    }

    #[test]
    fn an_example_item_outside_the_items_constraints_panics() {
        let items = ItemConstraints {
            description: None,
            each: AT_LEAST_ONE,
        };
        let message = panic_message(|| {
            assert_shown("pages", "example", &json!([1, 0]), None, Some(&items));
        });
        assert!(
            message.contains("(pages[1]: expected integer >= 1, got 0): the schema would show the model a value parse refuses"),
            "{message}"
        );
    }

    #[test]
    fn a_listed_value_outside_the_format_panics() {
        let emails = Constraints {
            format: Some(Format::Email),
            one_of: &[Literal::Str("a@example.com"), Literal::Str("nobody")],
            ..Constraints::NONE
        };
        let message = panic_message(|| assert_listed("to", &emails));
        assert!(
            message.starts_with("#[derive(ToolParams)]: the `one_of` list of field `to` holds a value the field's own attributes refuse (to: expected email string"),
            "{message}"
        );
        let fine = Constraints {
            one_of: &[Literal::Str("a@example.com")],
            ..emails
        };
        assert_listed("to", &fine);
    }
}
