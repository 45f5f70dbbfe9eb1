//! A string literal default that is no value of its field's type is a
//! clear failure when the schema is first built (the same moment a default
//! breaking its field's own attributes is), naming the field, what is
//! wrong, and the forms that work.

use serde_json::json;
use tool_core::ToolParams;

/// A temperature unit.
#[derive(ToolParams, Debug, PartialEq)]
#[param(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// A forecast with a default no unit has.
#[derive(ToolParams, Debug)]
struct Forecast {
    /// The unit
    #[param(default = "kelvin")]
    unit: Unit,
}

#[test]
fn a_default_the_type_cannot_read_says_the_forms_that_work() {
    let failed = std::panic::catch_unwind(Forecast::json_schema).unwrap_err();
    let message = failed
        .downcast_ref::<String>()
        .map(String::as_str)
        .unwrap_or_default();
    assert!(
        message.starts_with("#[derive(ToolParams)]: the default \"kelvin\" of field `unit` is not a value of its type (unit: expected one of \"celsius\", \"fahrenheit\", got \"kelvin\")"),
        "{message}"
    );
    assert!(message.contains("`default = Unit::Celsius`"), "{message}");
    // A call that leaves the field out meets the same default.
    assert!(std::panic::catch_unwind(|| Forecast::parse(&json!({}))).is_err());
}

/// A window of days.
#[derive(ToolParams, Debug)]
struct Window {
    /// How many days
    #[param(min = 1)]
    days: u32,
}

/// A request whose JSON default is no window.
#[derive(ToolParams, Debug)]
struct Request {
    /// The window
    #[param(default = {"days": "three"})]
    window: Window,
}

#[test]
fn a_json_default_the_type_cannot_read_names_the_field_and_the_problem() {
    let failed = std::panic::catch_unwind(Request::json_schema).unwrap_err();
    let message = failed
        .downcast_ref::<String>()
        .map(String::as_str)
        .unwrap_or_default();
    assert!(
        message.starts_with("#[derive(ToolParams)]: the default {\"days\":\"three\"} of field `window` is not a value of its type (window.days: expected integer, got string \"three\")"),
        "{message}"
    );
}
